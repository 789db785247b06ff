"""Caches of pictures bounded by the bytes their pixels hold, not by a count: the TV's text and
plate caches kept 4,096 pictures each and a full-window layer per scene, and the window grew by
~130 MB over a few games at 1080p (more at 4K). An :class:`Lru` drops its least recently used
pictures once their pixels pass its budget."""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

import pygame

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

MB = 1 << 20


def surface_bytes(surface: pygame.Surface) -> int:
    """The bytes of a surface's pixels."""
    return surface.get_bytesize() * surface.get_width() * surface.get_height()


class Lru(Generic[K, V]):
    """Least recently used first out, while the values' weight (``weigh``: bytes) passes ``budget``.
    The newest value always stays, whatever its weight."""

    def __init__(self, budget: int, weigh: Callable[[V], int]) -> None:
        self._items: OrderedDict[K, V] = OrderedDict()
        self._weights: dict[K, int] = {}
        self._budget = budget
        self._weigh = weigh
        self.weight = 0

    def get(self, key: K) -> V | None:
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> V:
        self.drop(key)
        weight = self._weigh(value)
        self._items[key] = value
        self._weights[key] = weight
        self.weight += weight
        while self.weight > self._budget and len(self._items) > 1:
            old, _ = self._items.popitem(last=False)
            self.weight -= self._weights.pop(old)
        return value

    def drop(self, key: K) -> None:
        if key in self._items:
            del self._items[key]
            self.weight -= self._weights.pop(key)

    def clear(self) -> None:
        self._items.clear()
        self._weights.clear()
        self.weight = 0

    def __len__(self) -> int:
        return len(self._items)

    def values(self) -> list[V]:
        return list(self._items.values())
