"""Animation arithmetic every scene shares: easing, the progress of a timed step, where a line
from a box's centre leaves the box, a slow glow."""
from __future__ import annotations

import math

import pygame

Point = tuple[float, float]


def ease(x: float) -> float:
    """Ease-out cubic over 0..1 (clamped)."""
    x = max(0.0, min(1.0, x))
    return 1 - (1 - x) ** 3


def span(t: float, start: float, length: float) -> float:
    """Progress 0..1 of an animation step that starts at ``start`` and lasts ``length`` seconds."""
    return max(0.0, min(1.0, (t - start) / length)) if length > 0 else float(t >= start)


def glow(t: float, speed: float = 3.0, phase: float = 0.0) -> float:
    """A slow pulse 0..1 (winners' halos, waiting rings)."""
    return 0.5 + 0.5 * math.sin(t * speed + phase)


def edge_point(box: pygame.Rect, towards: Point) -> Point:
    """Where the line from ``box``'s centre towards ``towards`` crosses the box's edge."""
    cx, cy = box.center
    dx, dy = towards[0] - cx, towards[1] - cy
    if dx == dy == 0:
        return cx, cy
    sx = box.width / 2 / abs(dx) if dx else math.inf
    sy = box.height / 2 / abs(dy) if dy else math.inf
    s = min(sx, sy)
    return cx + dx * s, cy + dy * s
