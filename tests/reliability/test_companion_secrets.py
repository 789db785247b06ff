"""The secrets matrix over the companion variants without bots (``companion_secrets_kit.py``):
seeded scripted people play whole games through a real session on virtual time; at every change
no seat, spectator, host console or big-screen snapshot holds another seat's secret, and a leak
planted in an engine's view is caught. Rule ids: ``docs/rules/speakeasy.md`` (S…), ``docs/rules/cheating-moth.md`` (M…).
"""
from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from companion_secrets_kit import PUBLIC_ME, SECRETS, SETUPS, Played, play_and_check
from secrets_kit import SEATS, SECRET_FIELDS

from game import catalog
from game.games.cheating_moth import companion as moth
from game.games.speakeasy import companion as se

CI_SEEDS = (1, 2)  # seed 1: identities and pointing on the phones; seed 2: real cards and fingers


def test_every_catalog_game_is_in_the_secrets_matrix() -> None:
    for desc in catalog.games():
        assert desc.id in SECRET_FIELDS, f"{desc.id}: its secrets are not listed in secrets_kit.SECRET_FIELDS"
        if desc.has_bots:
            assert desc.id in SEATS, f"{desc.id}: not in the bots' matrix (secrets_kit.SEATS)"
        else:
            for table in (SETUPS, SECRETS, PUBLIC_ME):
                assert desc.id in table, f"{desc.id}: no bots and no scripted people (companion_secrets_kit)"


def _play(game: str, seeds: tuple[int, ...] = CI_SEEDS) -> tuple[list[Played], Counter[str], Counter[str]]:
    played = [play_and_check(game, seed) for seed in seeds]
    moves: Counter[str] = sum((p.moves for p in played), Counter())
    secrets: Counter[str] = sum((p.secrets for p in played), Counter())
    return played, moves, secrets


@pytest.mark.parametrize("game", [g.id for g in catalog.games() if not g.has_bots])
def test_no_secret_leaves_its_seat_in_a_companion_game(game: str) -> None:
    played, moves, secrets = _play(game)
    for p in played:
        assert p.matrix.finished  # the whole game was played and checked
        assert p.matrix.moments > 20 and p.matrix.checks > 500
        assert p.matrix.breaches == []
    if game == "speakeasy_companion":  # S4 identities, S6 the subject, S7 pointing: all were there to leak
        assert {"identity", "subject", "pointing"} <= secrets.keys()
        assert {"point", "record_point", "reveal_identity"} <= moves.keys()
    if game == "cheating_moth_companion":  # M14/M15 races with slaps and a false start, M17 points
        assert {"call", "press", "false_start", "enter_points"} <= moves.keys()


def _leaky_view(monkeypatch: pytest.MonkeyPatch, engine: Any, leak: Any) -> None:
    """Plant ``leak(view, state, seat)`` into every view the engine gives (the session's too)."""
    honest = type(engine).view

    def view(self: Any, state: Any, seat: int | None) -> dict[str, Any]:
        v = honest(self, state, seat)
        leak(v, state, seat)
        return v

    monkeypatch.setattr(type(engine), "view", view)


def _breaches(game: str, seed: int = 1) -> list[str]:
    return play_and_check(game, seed).matrix.breaches


def test_S4_a_phone_shown_another_seat_identity_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def leak(view: dict[str, Any], state: se.State, seat: int | None) -> None:
        if seat is not None:
            neighbour = state.identities[(seat + 1) % state.n]
            view["me"]["neighbour"] = neighbour.value if neighbour else None

    _leaky_view(monkeypatch, se.ENGINE, leak)
    found = _breaches("speakeasy_companion")
    assert any("depends on seat" in b and b.endswith("'s identity") for b in found)
    assert any("'neighbour' is neither public nor a listed secret" in b for b in found)


def test_S6_the_subject_on_the_big_screen_before_the_reveal_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def leak(view: dict[str, Any], state: se.State, seat: int | None) -> None:
        view["subject"] = state.subject

    _leaky_view(monkeypatch, se.ENGINE, leak)
    found = _breaches("speakeasy_companion")
    for observer in ("the spectator feed", "the host console", "seat"):
        assert any(b.split(": ", 1)[1].startswith(observer) and b.endswith("'s subject") for b in found), observer


def test_S7_whom_a_phone_points_at_before_the_reveal_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def leak(view: dict[str, Any], state: se.State, seat: int | None) -> None:
        view["pointing"] = list(state.pointing)

    _leaky_view(monkeypatch, se.ENGINE, leak)
    assert any(b.endswith("'s pointing") for b in _breaches("speakeasy_companion"))


def test_S7_a_secret_in_the_legal_lists_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The host console's taps are recorded and checked too: here they would name the subject."""
    honest = se.SpeakeasyCompanionEngine.table_actions

    def table_actions(self: Any, state: se.State) -> list[Any]:
        extra = [se.ChooseSubject(state.subject)] if state.subject is not None else []
        return honest(self, state) + extra

    monkeypatch.setattr(se.SpeakeasyCompanionEngine, "table_actions", table_actions)
    assert any(b.split(": ", 1)[1].startswith("the host console depends") for b in _breaches("speakeasy_companion"))


def test_M17_a_phone_shown_another_seat_points_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cheating Moth companion holds no secret, so every private field must be the public one."""
    def leak(view: dict[str, Any], state: moth.State, seat: int | None) -> None:
        if seat is not None:
            view["me"]["total"] = state.pad.total((seat + 1) % state.n)

    _leaky_view(monkeypatch, moth.ENGINE, leak)
    assert any("private total=" in b and "not what the public view says" in b for b in _breaches("cheating_moth_companion"))


def test_S4_identities_on_the_public_plates_are_caught_by_the_generic_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same leak seen by ``secrets_kit.check`` (the bots' matrix's check) on every payload."""
    def leak(view: dict[str, Any], state: se.State, seat: int | None) -> None:
        for plate, identity in zip(view["seats"], state.identities, strict=True):
            plate["identity"] = identity.value if identity else None

    _leaky_view(monkeypatch, se.ENGINE, leak)
    found = _breaches("speakeasy_companion")
    for observer in ("spectator feed", "host console", "big screen"):
        assert any(f"the {observer} holds seat" in b and "'s identity=" in b for b in found), observer


def test_a_phone_sent_another_seat_private_part_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    honest = moth.CheatingMothCompanion.view

    def view(self: Any, state: moth.State, seat: int | None) -> dict[str, Any]:
        return honest(self, state, None if seat is None else (seat + 1) % state.n)

    monkeypatch.setattr(moth.CheatingMothCompanion, "view", view)
    assert any("was sent seat" in b and "private view" in b for b in _breaches("cheating_moth_companion"))
