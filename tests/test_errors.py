"""One error tree: rules, protocol and admin errors under TableError, each family apart, every
typed error with its own wire code."""
from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import game
from game.errors import TableError
from game.rules.base import RulesError
from game.server.errors import AdminError, BadPin, Forbidden, ProtocolError, RateLimited, ServerFault, TooLarge


def _coded_exceptions() -> set[type[Exception]]:
    """Every exception class in ``game`` that carries a wire ``code`` of its own."""
    found: set[type[Exception]] = set()
    for info in pkgutil.walk_packages(game.__path__, "game."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        found |= {c for _, c in inspect.getmembers(module, inspect.isclass)
                  if issubclass(c, Exception) and c.__module__ == module.__name__ and "code" in vars(c)}
    return found


def test_three_families_under_one_root_and_apart():
    for family in (RulesError, ProtocolError, AdminError, ServerFault):
        assert issubclass(family, TableError)
    assert issubclass(BadPin, AdminError) and issubclass(Forbidden, AdminError)
    assert issubclass(RateLimited, ProtocolError) and issubclass(TooLarge, ProtocolError)
    for server_error in (BadPin, Forbidden, RateLimited, TooLarge, ServerFault):
        assert not issubclass(server_error, RulesError)  # the engines' errors stay the engines'


def test_every_error_with_a_wire_code_is_in_the_tree():
    errors = _coded_exceptions()
    assert {RulesError, ProtocolError, AdminError, BadPin} <= errors
    for error in errors:
        assert issubclass(error, TableError), f"{error.__module__}.{error.__name__} is outside the tree"
        assert re.fullmatch(r"[a-z][a-z0-9_]*", error.code), error
