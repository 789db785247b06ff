"""Every level of every game's bots: plays to the end at the smallest and largest tables, sends only
legal actions, sees only its seat's view, and replays the same for the same seed. Search bots run
with a 2-iteration budget here (tests/bots/conftest.py)."""
from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import catalog
from game.bots import LEVEL_KIND, Bot, BotKind, Level, UnknownBot, make_bot
from game.bots.search import SearchBudget, default_budget
from game.catalog import get_engine
from game.simulate import play_game

LEVELS = (BotKind.HEURISTIC, BotKind.BELIEF, BotKind.SEARCH)
GAMES = tuple(d.id for d in catalog.games(catalog.PlayMode.TABLE) if d.has_bots)  # the ladder: every table game with bots


def _largest(game: str) -> int:
    engine = get_engine(game)
    return 12 if engine.max_seats >= 12 else 5  # Cheating Moth: 5 with one deck (M2)


def _play(game: str, kind: BotKind, seats: int, seed: int) -> Any:
    engine = get_engine(game)
    bots = [make_bot(game, kind, s, seed * 100 + s) for s in range(seats)]
    return play_game(engine, engine.default_settings(None), seats, seed, bots)


@pytest.mark.parametrize("kind", LEVELS, ids=lambda k: k.value)
@pytest.mark.parametrize("game", GAMES)
def test_each_level_plays_every_game_to_the_end_at_3_seats(game: str, kind: BotKind) -> None:
    result = _play(game, kind, 3, 5)
    assert result.winners and all(0 <= w < 3 for w in result.winners)


@pytest.mark.parametrize("kind", LEVELS, ids=lambda k: k.value)
@pytest.mark.parametrize("game", GAMES)
def test_each_level_plays_every_game_to_the_end_at_the_largest_table(game: str, kind: BotKind) -> None:
    seats = _largest(game)
    result = _play(game, kind, seats, 6)
    assert result.winners and all(0 <= w < seats for w in result.winners)


@pytest.mark.parametrize("kind", LEVELS, ids=lambda k: k.value)
def test_collusion_companion_with_digital_gold_plays_every_level(kind: BotKind) -> None:
    result = _play("collusion_companion", kind, 6, 8)
    assert result.winners


@pytest.mark.parametrize("kind", LEVELS, ids=lambda k: k.value)
@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_game(game: str, kind: BotKind) -> None:
    a, b = _play(game, kind, 4, 11), _play(game, kind, 4, 11)
    assert (a.winners, a.steps, a.causes) == (b.winners, b.steps, b.causes)


# ---------------------------------------------------------------------------------- legal actions
def _walk(game: str, seats: int, seed: int, steps: int) -> tuple[Any, Any]:
    """A state reached by ``steps`` random legal actions (or the timer) from a new game."""
    engine = get_engine(game)
    state = engine.new_game(engine.default_settings(None), seats, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if engine.is_over(state):
            break
        options = [(s, a) for s in engine.seats_to_act(state) for a in engine.legal_actions(state, s)
                   if not _is_timed_special(a)]
        if options:
            seat, action = rng.choice(options)
            state = engine.apply(state, seat, action)[0]
            continue
        timer = engine.timer(state)
        race = engine.race(state)
        expiry = race.on_result(()) if race is not None else (timer.on_expiry if timer else None)
        if expiry is None:
            break
        state = engine.apply(state, None, expiry)[0]
    return engine, state


def _is_timed_special(action: Any) -> bool:
    """Cheats and accusations need the session's clock; the random walk leaves them out."""
    return type(action).__name__ in ("CheatStart", "CheatFinish", "CheatCancel", "Accuse")


@settings(max_examples=12, deadline=None)
@given(game=st.sampled_from(GAMES), kind=st.sampled_from(LEVELS), seats=st.integers(3, 6),
       seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_a_bot_answers_only_with_a_legal_action_or_nothing(game: str, kind: BotKind, seats: int, seed: int,
                                                          steps: int) -> None:
    engine, state = _walk(game, min(seats, 5) if game == "cheating_moth" else seats, seed, steps)
    for seat in engine.seats_to_act(state):
        legal = engine.legal_actions(state, seat)
        action = make_bot(game, kind, seat, seed).choose(engine.view(state, seat), legal)
        assert action is None or action in legal


# ----------------------------------------------------------------------------- sees only its view
def _hide_differently(game: str, state: Any, seat: int, rng: random.Random) -> Any:
    """The same state with the secrets ``seat`` cannot see shuffled among the others."""
    if game == "collusion":
        from game.games.collusion.rules import evolve

        others = [s for s in range(state.n) if s != seat]
        bars = [b for s in others for b in state.gold[s]] + list(state.pot) + list(state.deck)
        rng.shuffle(bars)
        gold = list(state.gold)
        for s in others:
            gold[s], bars = tuple(bars[: len(gold[s])]), bars[len(gold[s]):]
        pot, deck = tuple(bars[: len(state.pot)]), tuple(bars[len(state.pot):])
        return evolve(state, gold=tuple(gold), pot=pot, deck=deck)
    if game == "speakeasy":
        hidden = [s for s in range(state.n) if s != seat and not state.seats[s].revealed]
        identities = [state.seats[s].identity for s in hidden]
        rng.shuffle(identities)
        seats = list(state.seats)
        for s, identity in zip(hidden, identities):
            seats[s] = dataclasses.replace(seats[s], identity=identity)
        return dataclasses.replace(state, seats=tuple(seats))
    others = [s for s in range(state.n) if s != seat]
    cards = [c for s in others for c in state.hands[s]] + list(state.draw_pile)
    rng.shuffle(cards)
    hands = list(state.hands)
    for s in others:
        hands[s], cards = tuple(cards[: len(hands[s])]), cards[len(hands[s]):]
    return dataclasses.replace(state, hands=tuple(hands), draw_pile=tuple(cards))


@pytest.mark.parametrize("kind", LEVELS, ids=lambda k: k.value)
@pytest.mark.parametrize("game", GAMES)
def test_a_bot_decides_from_its_view_alone(game: str, kind: BotKind) -> None:
    """Two states that differ only in what the seat cannot see give the same view and the same move;
    the bot also takes the view as plain JSON."""
    checked = 0
    for seed in range(6):
        engine, state = _walk(game, 4, seed, 10)
        for seat in engine.seats_to_act(state):
            other = _hide_differently(game, state, seat, random.Random(seed))
            view = engine.view(state, seat)
            assert engine.view(other, seat) == view
            legal = engine.legal_actions(state, seat)
            plain = json.loads(json.dumps(view))
            a = make_bot(game, kind, seat, 3).choose(plain, legal)
            b = make_bot(game, kind, seat, 3).choose(engine.view(other, seat), engine.legal_actions(other, seat))
            assert a == b
            checked += 1
    assert checked


# ------------------------------------------------------------------------------- levels and kinds
def test_levels_map_to_the_ladder_and_random_is_no_level() -> None:
    assert [LEVEL_KIND[level] for level in Level] == [BotKind.HEURISTIC, BotKind.BELIEF, BotKind.SEARCH]
    assert BotKind.RANDOM not in LEVEL_KIND.values()
    assert Level.HARD.label_key == "bot.level.hard" and Level.EASY.kind is BotKind.HEURISTIC


@pytest.mark.parametrize("level", list(Level), ids=lambda lv: lv.value)
def test_every_level_label_exists_in_en_fa_th(level: Level) -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "game" / "i18n"
    for lang in ("en", "fa", "th"):
        for family in ("web", "screen"):
            strings = json.loads((root / f"{family}_{lang}.json").read_text(encoding="utf-8"))
            assert strings.get(level.label_key), f"{family}_{lang}.json lacks {level.label_key}"


@pytest.mark.parametrize("game", [g for g in catalog.ids() if catalog.get(g).has_bots])
def test_every_game_with_bots_makes_every_kind_and_refuses_others(game: str) -> None:
    for kind in BotKind:
        assert isinstance(make_bot(game, kind, 1, 2), Bot)
    with pytest.raises(UnknownBot):
        make_bot(game, "genius", 0, 1)


def test_a_search_budget_is_counted_and_shrinks_for_big_tables() -> None:
    with pytest.raises(ValueError):
        SearchBudget(0)
    from game.bots.search import set_default_budget

    set_default_budget("collusion", None)
    assert default_budget("collusion", 12).iterations < default_budget("collusion", 6).iterations


# ------------------------------------------------------------------------------- human-like pacing
@pytest.mark.parametrize("game", GAMES)
def test_search_bots_keep_a_human_thinking_time(game: str) -> None:
    """A search bot thinks off the table's loop, but still waits a person's thinking time first."""
    for kind in (BotKind.HEURISTIC, BotKind.SEARCH):
        bot = make_bot(game, kind, 0, 3)
        waits = [bot.think_ms() for _ in range(300)]
        assert min(waits) >= 250 and max(waits) <= 10_000 and len(set(waits)) > 20, (game, kind)


def _moth_race(seed: int) -> tuple[Any, Any, int]:
    """A Cheating Moth state with a race open and a seat eligible in it."""
    for s in range(seed, seed + 400):
        engine, state = _walk("cheating_moth", 4, s, random.Random(s).randint(5, 80))
        race = engine.race(state)
        if race is not None and not engine.is_over(state):
            view = engine.view(state, 0)
            eligible = view.get("race", {}).get("eligible", ())
            if eligible:
                return engine, state, eligible[0]
    raise AssertionError("no race reached")


def test_search_bots_press_races_with_a_human_reaction_time() -> None:
    engine, state, seat = _moth_race(1)
    view = engine.view(state, seat)
    heuristic, search = make_bot("cheating_moth", "heuristic", seat, 9), make_bot("cheating_moth", "search", seat, 9)
    assert search.race_press(view) == heuristic.race_press(view) is not None
    reactions = [search.think_ms() for _ in range(200)]
    assert min(reactions) >= 160 and max(reactions) <= 600 and 200 <= sorted(reactions)[100] <= 320


def test_the_host_page_offers_the_levels_with_their_measured_kinds() -> None:
    """The host page's menu (game/web/js/screens/host.js) names the levels and stores LEVEL_KIND's kinds."""
    source = (Path(__file__).resolve().parents[2] / "game/web/js/screens/host.js").read_text(encoding="utf-8")
    found = re.search(r"const BOT_LEVELS = Object\.freeze\((\[.*?\])\);", source)
    assert found is not None
    assert [tuple(pair) for pair in json.loads(found.group(1))] == [(level.value, kind.value) for level, kind in LEVEL_KIND.items()]
