"""The optional hooks of engines and bots are declared on their base classes with defaults, and no
caller in game/ probes for them with getattr."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from game.bots import Bot, make_bot, uses_view
from game.games.cheating_moth.companion import ENGINE as MOTH_COMPANION
from game.games.collusion.rules import ENGINE as COLLUSION
from game.rules.base import GameEngine
from tests.conformance.toygame import ENGINE as TOY
from tests.conformance.toygame import Pick, Settings

HOOKS = ("table_actions", "legal_form", "button_action", "start_events", "race_press", "uses_view", "thinks_off_loop")
PROBE = re.compile(r"""(getattr|hasattr)\([^)]*["'](""" + "|".join(HOOKS) + r""")["']""")
GAME = Path(__file__).resolve().parents[1] / "game"


def probes(root: Path) -> list[str]:
    return [f"{path.relative_to(root.parent)}:{n}" for path in sorted(root.rglob("*.py"))
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if PROBE.search(line)]


def test_no_getattr_hook_probes_in_game() -> None:
    assert probes(GAME) == []


def test_the_probe_finder_finds_a_probe(tmp_path: Path) -> None:
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "x.py").write_text('ask = getattr(bot, "race_press", None)\n', encoding="utf-8")
    assert probes(tmp_path / "game") == ["game/x.py:1"]


def test_engine_hooks_have_harmless_defaults() -> None:
    engine: GameEngine[Any] = TOY  # a game that overrides none of these hooks
    state = engine.new_game(Settings(), 3, seed=1)
    assert type(TOY).table_actions is GameEngine.table_actions
    assert engine.table_actions(state) == [] and engine.start_events(state) == []
    assert engine.legal_form(Pick(2)) == Pick(2) and engine.button_action(state, 0, 2) is None


def test_engines_override_only_the_hooks_they_use() -> None:
    assert type(COLLUSION).button_action is GameEngine.button_action
    assert type(MOTH_COMPANION).button_action is not GameEngine.button_action
    assert type(MOTH_COMPANION).table_actions is not GameEngine.table_actions


class Plain(Bot):
    def choose(self, view: dict[str, Any] | None, legal: list[Any]) -> Any | None:
        return None

    def think_ms(self) -> int:
        return 0


def test_bot_hooks_have_defaults_and_every_catalog_bot_is_a_bot() -> None:
    assert Plain().race_press({}) is None and uses_view(Plain()) and not Plain().thinks_off_loop
    assert not uses_view(make_bot("collusion", "random", 0, 1))
    assert isinstance(make_bot("collusion_companion", "heuristic", 0, 1), Bot)
    assert type(make_bot("cheating_moth", "heuristic", 0, 1)).race_press is not Bot.race_press


def test_search_bots_think_off_the_loop_and_the_others_on_it() -> None:
    for game in ("collusion", "speakeasy", "cheating_moth", "collusion_companion"):
        thinks = {kind: make_bot(game, kind, 0, 1).thinks_off_loop for kind in ("random", "heuristic", "belief", "search")}
        assert thinks == {"random": False, "heuristic": False, "belief": False, "search": True}, game
