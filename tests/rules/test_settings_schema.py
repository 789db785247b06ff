"""The settings schema (game/rules/schema.py): every game's editable settings, derived once from its
Settings type, are exactly what its engine accepts; the TV and the host console read only this."""
from __future__ import annotations

import dataclasses
import enum
from typing import get_type_hints

import pytest

from game import catalog
from game.rules.base import BadSettings
from game.rules.schema import SettingKind, SettingSpec, SettingUnit, settings_schema


@pytest.mark.parametrize("game", catalog.ids())
def test_every_choice_and_switch_the_schema_offers_is_accepted(game: str) -> None:
    engine = catalog.get(game).load_engine()
    wire = engine.settings_to_wire(engine.default_settings())
    schema = engine.settings_schema()
    assert schema and len({s.key for s in schema}) == len(schema)
    for spec in schema:
        assert spec.key in wire, spec.key
        values = spec.choices if spec.kind is SettingKind.CHOICE else (True, False) if spec.kind is SettingKind.BOOL else ()
        for value in values:
            engine.settings_from_wire({spec.key: value})


@pytest.mark.parametrize("game", catalog.ids())
def test_every_enum_switch_and_number_field_is_in_the_schema(game: str) -> None:
    engine = catalog.get(game).load_engine()
    kind = type(engine.default_settings())
    hints = get_type_hints(kind)
    editable = {f.name for f in dataclasses.fields(kind)
                if hints[f.name] in (bool, int) or (isinstance(hints[f.name], type) and issubclass(hints[f.name], enum.Enum))}
    assert editable <= {s.key for s in engine.settings_schema()}


def test_a_choice_outside_the_schema_is_refused_by_the_engine() -> None:
    engine = catalog.get("speakeasy").load_engine()
    [deck] = [s for s in engine.settings_schema() if s.key == "deck"]  # S2: a text field with a word list
    assert deck.kind is SettingKind.CHOICE and deck.choices == ("en", "fa", "th")
    with pytest.raises(BadSettings):
        engine.settings_from_wire({"deck": "xx"})


@dataclasses.dataclass(frozen=True)
class _Made:
    class Colour(enum.Enum):
        RED = "red"
        BLUE = "blue"

    on: bool = True
    wait_ms: int = 1000
    count: int = 3
    colour: Colour = Colour.RED
    word: str = "a"
    free_text: str = ""
    counts: tuple[int, ...] = ()


def test_the_schema_follows_the_field_types() -> None:
    specs = {s.key: s for s in settings_schema(_Made, {"word": ("a", "b")})}
    assert set(specs) == {"on", "wait_ms", "count", "colour", "word"}  # no free text, no lists
    assert specs["on"].kind is SettingKind.BOOL
    assert (specs["wait_ms"].unit, specs["wait_ms"].step) == (SettingUnit.MS, 5000)
    assert (specs["count"].unit, specs["count"].step) == (SettingUnit.COUNT, 1)
    assert specs["colour"].choices == ("red", "blue") and specs["word"].choices == ("a", "b")
    assert specs["count"].to_json()["label"] == "settings.count"


def test_stepping_stays_in_range_and_cycles_choices() -> None:
    bounded = SettingSpec("n", SettingKind.INT, minimum=1, maximum=3)
    assert [bounded.stepped(1, -1), bounded.stepped(2, 1), bounded.stepped(3, 1)] == [1, 3, 3]
    colour = SettingSpec("c", SettingKind.CHOICE, choices=("red", "blue"))
    assert [colour.stepped("blue", 1), colour.stepped("red", -1), colour.stepped("green", 1)] == ["red", "blue", "green"]
    assert SettingSpec("b", SettingKind.BOOL).stepped(False, 1) is True
