"""Speakeasy on the big screen: every scene in every language draws and is the expected one, no
text overflows at 720p, 1080p and 4K (the smallest and fullest tables, the longest clue too),
drawing changes nothing, the story's beats come in order, and nothing secret is shown early."""
from __future__ import annotations

import copy
import dataclasses

import pygame
import pytest
from scene_checks import (
    LANGS,
    SIZES,
    assert_draw_is_pure,
    assert_no_text_overflows,
    assert_paints_the_whole_window,
    probing_context,
)

from game import i18n
from game.games.speakeasy.tapes import speakeasy_moments, speakeasy_table
from game.render.app import Screen
from game.render.kit.qr import QrCache
from game.render.kit.scene import RenderContext
from game.render.kit.sound import Effect, SoundBank
from game.render.kit.text import TextRenderer
from game.tapes import Moment, play_moment

MOMENTS = {lang: list(speakeasy_moments(lang)) for lang in LANGS}
EXPECTED_TOP = {
    "s01_choosing": "speakeasy_table", "s02_pointing": "speakeasy_table", "s03_last_seconds": "speakeasy_table",
    "s04_reveal_arrows": "speakeasy_reveal", "s05_reveal_subject": "speakeasy_reveal",
    "s06_reveal_identity": "speakeasy_reveal", "s07_reveal_points": "speakeasy_reveal",
    "s08_revealed": "speakeasy_table", "s09_citizen_found": "speakeasy_reveal", "s10_nobody_found": "speakeasy_reveal",
    "s11_final_secrets": "speakeasy_finale", "s12_game_over": "speakeasy_over",
}


def by_name(lang: str = "en") -> dict[str, Moment]:
    return {m.name: m for m in MOMENTS[lang]}


def say(lang: str, key: str, **values) -> str:
    return i18n.text(lang, "screen_speakeasy", key, **values)


class RecordingBank(SoundBank):
    def __init__(self) -> None:
        super().__init__(enabled=False)
        self.played: list[Effect] = []

    def play(self, effect: Effect) -> None:
        self.played.append(effect)


def drawn_texts(moment: Moment, size: tuple[int, int] = (1280, 720)) -> list[str]:
    shown: list[str] = []
    ctx = RenderContext(TextRenderer(lambda text, *_: shown.append(text)), QrCache(), SoundBank(enabled=False))
    play_moment(moment, size, ctx).draw(pygame.Surface(size))
    return shown


class Fits(TextRenderer):
    """A text renderer that notes each text it fits anew (a fit found in its cache is not)."""

    def __init__(self) -> None:
        super().__init__()
        self.fitted: list[str] = []

    def _fit(self, text, lang, size, style):  # type: ignore[no-untyped-def]
        self.fitted.append(text)
        return super()._fit(text, lang, size, style)


def fitting_screen() -> tuple[Screen, list[str]]:
    """A screen with new caches (the plates' and layers' key on its renderer) and the texts it fits."""
    text = Fits()
    return Screen(ctx=RenderContext(text, QrCache(), SoundBank(enabled=False))), text.fitted


def test_the_script_covers_every_scene_and_every_outcome():
    for lang in LANGS:
        assert [m.name for m in MOMENTS[lang]] == list(EXPECTED_TOP)
    outcomes = [(m.snapshots[-1].public_view["reveal"] or {}).get("outcome") for m in MOMENTS["en"]]
    assert {"informant_caught", "citizen_found", "nobody"} <= set(outcomes)
    first = by_name()["s04_reveal_arrows"].snapshots[-1].public_view["reveal"]
    assert first["subject"] in first["correct"] and first["pointing"][first["subject"]] == first["subject"]  # a self-point
    assert None in first["pointing"]  # and a seat that never pointed


@pytest.mark.parametrize("lang", LANGS)
def test_every_scene_draws_and_is_the_expected_one(lang, shared_ctx):
    for moment in MOMENTS[lang]:
        screen = play_moment(moment, (1280, 720), shared_ctx)
        assert screen.director.top is not None and screen.director.top.name == EXPECTED_TOP[moment.name], moment.name
        assert_paints_the_whole_window(screen, moment.name)



@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
def test_no_text_overflows_its_box_or_gets_unreadably_small(lang, size):
    assert_no_text_overflows(MOMENTS[lang], size)


LONG_CLUES = {
    "en": "Someone who has changed seats, refilled a glass for someone else and laughed at their own joke before "
          "the punchline tonight",
    "fa": "کسی که امشب جایش را عوض کرده، برای یکی دیگر نوشیدنی ریخته و قبل از تمام شدن جوکش به آن خندیده، آن هم بلندتر از همه",
    "th": "คนที่คืนนี้ย้ายที่นั่งแล้ว รินน้ำให้คนอื่น และหัวเราะมุกตัวเองก่อนจะเล่าจบ ทั้งยังถ่ายรูปอาหารก่อนกินแล้วลืมของไว้บนโต๊ะ",
}


def _long_clue_table(n: int, lang: str):
    deck = [f"{LONG_CLUES[lang]} {i}" for i in range(2 * n)]
    return speakeasy_table(n, lang, settings={"custom_clues": deck})


def _everyone_points_at_the_host_s_subject(table) -> tuple:
    host = table.view["host"]
    subject = next(s for s in range(table.n) if s != host)
    table.act(host, {"type": "choose_subject", "subject": subject})
    before = table.snapshot()
    for k, seat in enumerate(s for s in range(table.n) if s != host):
        table.act(seat, {"type": "point", "target": subject if k % 2 == 0 else seat})
    return before, table.snapshot()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("seats", [3, 12])
def test_smallest_and_fullest_tables_with_the_longest_clue_fit(lang, size, seats):
    problems: list[str] = []
    ctx = probing_context(problems, size)
    table = _long_clue_table(seats, lang)
    start = table.snapshot()
    before, after = _everyone_points_at_the_host_s_subject(table)
    assert len(start.public_view["clue"]["text"]) > 110
    surface = pygame.Surface(size)
    for moment in (Moment("table", (start,)), Moment("reveal", (before, after), play_s=4.6),
                   Moment("revealed", (before, after), play_s=8.0)):
        play_moment(moment, size, ctx).draw(surface)
    assert not problems, problems[:5]



@pytest.mark.parametrize("lang", LANGS)
def test_draw_changes_neither_the_snapshot_nor_the_scenes(lang, shared_ctx):
    for moment in MOMENTS[lang]:
        assert_draw_is_pure(play_moment(moment, (1280, 720), shared_ctx), moment.name)


def test_the_reveal_plays_then_hands_back_to_the_table_and_the_finale_to_the_winner(shared_ctx):
    screen = play_moment(by_name()["s04_reveal_arrows"], (1280, 720), shared_ctx)
    assert screen.director.names() == ["speakeasy_table", "speakeasy_reveal"]
    screen.advance(6.0, (1280, 720))
    assert screen.director.names() == ["speakeasy_table"]
    screen = play_moment(by_name()["s11_final_secrets"], (1280, 720), shared_ctx)
    assert screen.director.names() == ["speakeasy_over", "speakeasy_finale"]
    screen.advance(12.0, (1280, 720))
    assert screen.director.names() == ["speakeasy_over"]


def test_a_screen_that_starts_mid_reveal_does_not_replay_it(shared_ctx):
    screen = Screen(ctx=shared_ctx)
    screen.sync(by_name()["s04_reveal_arrows"].snapshots[-1])
    screen.advance(0.5, (1280, 720))
    assert screen.director.names() == ["speakeasy_table"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_table_shows_the_clue_the_host_and_who_pointed_but_not_at_whom(lang):
    moments = by_name(lang)
    pointing = moments["s02_pointing"].snapshots[-1]
    view = pointing.public_view
    texts = drawn_texts(moments["s02_pointing"])
    assert view["clue"]["text"] in texts
    host_name = pointing.seats[view["host"]].name
    assert say(lang, "host.label", name=host_name) in texts
    assert say(lang, "pointing", n=len(view["pointed"]), m=len(view["pointers"])) in texts
    secrets = {say(lang, "badge.subject"), say(lang, "identity.informant"), say(lang, "identity.citizen")}
    assert not secrets & set(texts)  # no subject and no identity before the reveal


@pytest.mark.parametrize("lang", LANGS)
def test_the_reveal_names_the_subject_the_identity_and_who_was_right(lang):
    moments = by_name(lang)
    reveal = moments["s07_reveal_points"].snapshots[-1]
    r = reveal.public_view["reveal"]
    name = reveal.seats[r["subject"]].name
    texts = drawn_texts(moments["s07_reveal_points"])
    assert say(lang, "identity.informant") in texts
    assert any(t.startswith(say(lang, "reveal.informant", name=name)) for t in texts)
    nobody = moments["s10_nobody_found"]
    r3 = nobody.snapshots[-1].public_view["reveal"]
    seats = nobody.snapshots[-1].seats
    assert say(lang, "reveal.nobody", name=seats[r3["subject"]].name, host=seats[r3["host"]].name) in drawn_texts(nobody)


@pytest.mark.parametrize("lang", LANGS)
def test_the_end_shows_every_identity_the_bonuses_and_the_winner(lang):
    moments = by_name(lang)
    over = moments["s12_game_over"].snapshots[-1]
    final = over.public_view["final"]
    texts = drawn_texts(moments["s12_game_over"])
    winner = final["winners"][0]
    assert say(lang, "over.wins", name=over.seats[winner].name, n=final["scores"][winner]) in texts
    assert texts.count(say(lang, "identity.informant")) == final["identities"].count("informant")
    for score in final["scores"]:
        assert say(lang, "score", n=score) in texts
    finale = drawn_texts(dataclasses.replace(moments["s11_final_secrets"], play_s=30.0))
    assert say(lang, "over.wins", name=over.seats[winner].name, n=final["scores"][winner]) in finale


@pytest.mark.parametrize("tie_break", ["correct_points", "shared", "lots"])
def test_the_tie_break_is_explained(tie_break):
    over = by_name()["s12_game_over"]
    snap = over.snapshots[-1]
    view = copy.deepcopy(snap.public_view)
    view["final"]["tie_break"] = tie_break
    if tie_break == "shared":
        view["final"]["winners"] = view["winners"] = [0, 1]
    texts = drawn_texts(Moment("tie", (dataclasses.replace(snap, public_view=view),)))
    assert say("en", f"tie.{tie_break}") in texts
    if tie_break == "shared":
        assert say("en", "over.shared", names=f"{snap.seats[0].name} and {snap.seats[1].name}") in texts


def test_scenes_cue_their_sounds_as_the_story_unfolds(shared_ctx):
    bank = RecordingBank()
    ctx = RenderContext(shared_ctx.text, shared_ctx.qr, bank)
    moments = by_name()
    play_moment(moments["s02_pointing"], (1280, 720), ctx)
    assert bank.played.count(Effect.PLACE) == 3  # three seats pointed after the screen started
    bank.played.clear()
    play_moment(moments["s03_last_seconds"], (1280, 720), ctx)
    assert Effect.TICK in bank.played
    bank.played.clear()
    play_moment(moments["s07_reveal_points"], (1280, 720), ctx)
    story = [e for e in bank.played if e not in (Effect.TICK, Effect.PLACE)]
    assert story == [Effect.REVEAL, Effect.STING]  # the arrows, then an Informant caught
    bank.played.clear()
    play_moment(moments["s11_final_secrets"], (1280, 720), ctx)
    assert [e for e in bank.played if e is not Effect.TICK][0] is Effect.SUSPENSE  # the last clue may still tick


def test_the_timer_only_hurries_while_someone_must_act():
    moments = by_name()
    assert say("en", "timer.hurry") in drawn_texts(moments["s03_last_seconds"])
    assert say("en", "timer.hurry") not in drawn_texts(dataclasses.replace(moments["s08_revealed"], play_s=13.0))


@pytest.mark.parametrize("moment_name", ["s02_pointing", "s08_revealed", "s12_game_over"])
def test_a_view_missing_any_field_still_draws(moment_name, shared_ctx):
    snap = by_name()[moment_name].snapshots[-1]
    surface = pygame.Surface((640, 360))
    for key in list(snap.public_view):
        if key in ("game", "phase"):
            continue
        view = {k: v for k, v in snap.public_view.items() if k != key}
        screen = Screen(ctx=shared_ctx)
        screen.sync(dataclasses.replace(snap, public_view=view))
        screen.advance(0.2, (640, 360))
        screen.draw(surface)


def test_a_skipped_clue_and_a_subject_drawn_by_the_table_are_told(shared_ctx):
    table = speakeasy_table(4, "en", settings={"host_timeout": "skip_clue"})
    before = table.snapshot()
    host = before.public_view["host"]
    table.expire()
    skipped = table.snapshot()
    assert "clue_skipped" in [e["type"] for e in skipped.events]
    texts = drawn_texts(Moment("skipped", (before, skipped), play_s=1.0))
    assert say("en", "reveal.skipped", host=skipped.seats[host].name) in texts

    table = speakeasy_table(4, "en")
    table.expire()  # the host's timer ends: the table draws the subject (S6 [gap] default)
    chosen = table.snapshot()
    for seat in chosen.public_view["pointers"]:
        table.act(seat, {"type": "point", "target": seat})
    reveal = table.snapshot()
    r = reveal.public_view["reveal"]
    assert r["subject_by_timeout"]
    texts = drawn_texts(Moment("drawn", (chosen, reveal), play_s=1.8))
    assert say("en", "reveal.subject_random", host=reveal.seats[r["host"]].name,
               name=reveal.seats[r["subject"]].name) in texts


def test_every_language_has_every_string_with_the_same_placeholders_in_its_own_script():
    import string

    def placeholders(template: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}

    english = i18n.load("en", "screen_speakeasy")
    for lang, low, high in (("fa", 0x0600, 0x06FF), ("th", 0x0E00, 0x0E7F)):
        strings = i18n.load(lang, "screen_speakeasy")
        assert set(strings) == set(english), lang
        for key, template in english.items():
            assert placeholders(strings[key]) == placeholders(template), (lang, key)
        native = [k for k, v in strings.items() if any(low <= ord(c) <= high for c in v)]
        assert len(native) > 0.85 * len(strings), lang


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_clue_s_place_in_the_middle_stays_clear_of_every_seat(size):
    from game.games.speakeasy.screen.table import stage

    for n in range(3, 13):
        st = stage(size, n)
        assert not [s.seat for s in st.lay.spots if s.plate.colliderect(st.middle)], n
        assert st.middle.width >= 0.3 * size[0] and st.middle.height >= 0.3 * size[1], n
        assert st.middle.contains(st.card) and st.middle.contains(st.header) and st.middle.contains(st.footer), n


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)])
@pytest.mark.parametrize("n", range(3, 13))
def test_S7_a_self_point_never_covers_the_clue_card(size: tuple[int, int], n: int) -> None:
    """A player who points at themselves gets a round arrow by their plate; it must not sit on the
    clue card (a Persian clue starts at the card's right edge, where a side seat's loop fell) nor
    on the clue counter above it or the host line below (the top seat's loop covered the counter)."""
    from game.games.speakeasy.screen.table import self_loop_centre, stage

    st = stage(size, n)
    for seat in range(n):
        r = st.lay.spots[seat].plate.height * 0.4
        cx, cy = self_loop_centre(st.lay, seat, r, st.middle, size)
        loop = pygame.Rect(0, 0, round(2 * r), round(2 * r))
        loop.center = (round(cx), round(cy))
        assert not loop.colliderect(st.middle), f"seat {seat} of {n} at {size}: loop {loop} on the clue {st.middle}"
        others = [s.plate for k, s in enumerate(st.lay.spots) if k != seat]
        assert loop.collidelist(others) < 0, f"seat {seat} of {n} at {size}: loop {loop} on another plate"


def arrow_ink_in(size: tuple[int, int], plates: list[pygame.Rect], keep_out: pygame.Rect) -> list[tuple[int, int]]:
    """Every seat's arrow to every other seat drawn on a clear screen: the (from, to) pairs whose
    arrow leaves ink inside ``keep_out`` or on another seat's plate."""
    from game.render.kit.route import draw_seat_arrow
    from game.render.kit.theme import Scale

    u = Scale(*size).u
    crossing = []
    for src, a in enumerate(plates):
        for dst, b in enumerate(plates):
            if src == dst:
                continue
            surface = pygame.Surface(size, pygame.SRCALPHA)  # clear: only the arrow's pixels have alpha
            draw_seat_arrow(surface, a, b, (keep_out,), (255, 255, 255), u, 1.0, side=7 * u, plates=plates)
            others = [p for k, p in enumerate(plates) if k not in (src, dst)]  # their names are words too
            if any(surface.subsurface(box).get_bounding_rect().width for box in (keep_out, *others)):
                crossing.append((src, dst))
    return crossing


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("n", range(3, 13))
def test_S7_no_reveal_arrow_crosses_the_clue_card_or_its_words(size: tuple[int, int], n: int) -> None:
    """The reveal's arrows (pointer to pointed-at seat) went straight across the clue card and the
    host line under it; they go round the whole middle (counter, card, host and timer) instead,
    and round the other seats' plates."""
    from game.games.speakeasy.screen.table import stage

    st = stage(size, n)
    assert arrow_ink_in(size, [s.plate for s in st.lay.spots], st.middle) == []


def without_arrows(moment: Moment, path: tuple[str, ...]) -> Moment:
    """The same moment with only the self-points left of the pointing (``path``: where the view keeps it)."""
    def cleared(snap):
        view = copy.deepcopy(snap.public_view)
        holder = view
        for key in path[:-1]:
            holder = holder.get(key) or {}
        if holder.get(path[-1]):
            holder[path[-1]] = [p if p == s else None for s, p in enumerate(holder[path[-1]])]
        return dataclasses.replace(snap, public_view=view)

    return dataclasses.replace(moment, snapshots=tuple(cleared(s) for s in moment.snapshots))


def middle_pixels(moment: Moment, size: tuple[int, int], middle: pygame.Rect) -> bytes:
    surface = pygame.Surface(size)
    play_moment(moment, size).draw(surface)
    return pygame.image.tobytes(surface.subsurface(middle), "RGB")


@pytest.mark.parametrize("lang", LANGS)
def test_S7_the_revealed_table_draws_its_arrows_round_the_clue_card_and_its_words(lang):
    """The reveal's arrows went straight across the card (the tape's Mina -> Tom and Ali -> Tom):
    the middle (counter, card, host line, timer) looks the same with the arrows as without."""
    from game.games.speakeasy.screen.table import stage

    moment = by_name(lang)["s08_revealed"]
    assert any(p is not None and p != s for s, p in enumerate(moment.snapshots[-1].public_view["reveal"]["pointing"]))
    size = (1920, 1080)
    middle = stage(size, len(moment.snapshots[-1].seats)).middle
    assert middle_pixels(moment, size, middle) == middle_pixels(without_arrows(moment, ("reveal", "pointing")), size, middle)


def test_the_reveal_routes_its_arrows_and_fits_its_captions_in_the_frames_before_they_show() -> None:
    """At a full table the arrows' routes (22 ms) and the result's caption (8 ms) were made in the
    frame they first showed in, over a frame's budget: the beat makes them a piece a frame before,
    so the frames that show them (and the table's after the beat) find them cached."""
    from game.games.speakeasy.screen.beats import RevealBeat
    from game.games.speakeasy.screen.table import result_sentence
    from game.games.speakeasy.tapes import speakeasy_busiest_reveal
    from game.render.app import STEP_S
    from game.render.kit import route

    size = (1920, 1080)
    before, after = speakeasy_busiest_reveal(12, "en")
    screen, fitted = fitting_screen()
    screen.sync(before)
    screen.advance(STEP_S, size)
    screen.sync(after)
    surface = pygame.Surface(size)
    route._route.cache_clear()
    late: list[str] = []  # captions fitted once the beat's caption shows what the reveal meant
    meant = ""
    while True:
        screen.advance(STEP_S, size)
        beat = screen.director.stack[-1]
        if isinstance(beat, RevealBeat):
            meant = result_sentence(screen.frame(size), beat.after, beat.result)
        if isinstance(beat, RevealBeat) and beat.t >= RevealBeat.ARROWS:
            assert route._route.cache_info().currsize == 6, "every arrow routed before the arrows show"
            misses = route._route.cache_info().misses
        fitted.clear()
        screen.draw(surface)
        if isinstance(beat, RevealBeat) and beat.t >= RevealBeat.ARROWS:
            assert route._route.cache_info().misses == misses
        if not isinstance(beat, RevealBeat) or beat.t >= beat.IDENTITY + beat.FLIPPED:
            late += [text for text in fitted if text.startswith(meant)]
        if not isinstance(beat, RevealBeat):
            break
    assert late == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_tv_started_just_before_a_reveal_has_its_first_frame_made_by_the_table_warm_tasks(
        lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A TV started mid-game, the full table's reveal on its next tick: the reveal's first frame
    made the room, every plate, the clue card and its captions (40 ms at 1080p). The table scene's
    warm tasks, which the window runs before its first frame, make them, so that frame draws no
    plate and fits no text."""
    from game.games.speakeasy.screen.beats import RevealBeat
    from game.games.speakeasy.tapes import speakeasy_busiest_reveal
    from game.render.app import STEP_S
    from game.render.kit import plates

    size = (1920, 1080)
    before, after = speakeasy_busiest_reveal(12, lang)
    screen, fitted = fitting_screen()
    screen.sync(before)
    screen.advance(STEP_S, size)
    assert screen.warm_scene(size)
    drawn: list[int] = []
    draw_plate = plates.draw_plate
    monkeypatch.setattr(plates, "draw_plate", lambda surface, rect, seat, *rest: (drawn.append(seat.seat),
                                                                                draw_plate(surface, rect, seat, *rest)))
    screen.sync(after)
    screen.advance(STEP_S, size)
    assert isinstance(screen.director.stack[-1], RevealBeat)
    fitted.clear()
    screen.draw(pygame.Surface(size))
    assert drawn == [] and fitted == []
