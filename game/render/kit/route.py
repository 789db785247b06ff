"""Arrows from seat to seat that go around what must stay readable (a clue card and its words):
straight when the straight line is clear, else the shortest way round the kept-out boxes' corners,
and drawn along that path (with a head on its last stretch) up to a fraction of its length."""
from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from functools import lru_cache

import pygame

from . import shapes, theme
from .motion import Point, edge_point

HEAD = 24  # an arrow's head length (its outline's), in scale units; the head is 0.55 of that to each side


def _clear(p: Point, q: Point, walls: Sequence[pygame.Rect]) -> bool:
    return all(not wall.clipline(p, q) for wall in walls)


def _corners(box: pygame.Rect) -> list[Point]:
    return [(float(box.left), float(box.top)), (float(box.right), float(box.top)),
            (float(box.right), float(box.bottom)), (float(box.left), float(box.bottom))]


Box = tuple[int, int, int, int]


def _ports(box: pygame.Rect, out: float) -> list[Point]:
    """Where an arrow may leave or meet a plate: its corners and the middles of its sides, ``out`` outside."""
    x0, x1, y0, y1 = box.left - out, box.right + out, box.top - out, box.bottom + out
    cx, cy = float(box.centerx), float(box.centery)
    return [(x0, y0), (cx, y0), (x1, y0), (x1, cy), (x1, y1), (cx, y1), (x0, y1), (x0, cy)]


def _shortest(starts: list[Point], ends: list[Point], start_cost: list[float], end_cost: list[float],
              turns: list[Point], walls: Sequence[pygame.Rect]) -> list[Point] | None:
    """Dijkstra from any of ``starts`` (each at its cost) to any of ``ends`` (each adding its
    cost), through ``turns``, along straight lines clear of ``walls``."""
    points = [*starts, *ends, *turns]
    first_end, first_turn = len(starts), len(starts) + len(ends)
    best = dict(enumerate(start_cost))
    came: dict[int, int] = {}
    queue = [(c, k) for k, c in best.items()]
    heapq.heapify(queue)
    finish: tuple[float, int] | None = None
    while queue:
        cost, i = heapq.heappop(queue)
        if finish is not None and cost >= finish[0]:
            break
        if cost > best.get(i, math.inf):
            continue
        if first_end <= i < first_turn:
            total = cost + end_cost[i - first_end]
            if finish is None or total < finish[0]:
                finish = (total, i)
            continue
        here = points[i]
        for j in range(first_end, len(points)):
            # the length first: a line need not be tested against the walls for a way no shorter
            # than the best one known (the same routes, found with fewer tests: a 12-seat
            # reveal's first frame with six arrows took 24 ms, 22 ms with this)
            step = cost + math.dist(here, points[j])
            if j == i or step >= best.get(j, math.inf) or not _clear(here, points[j], walls):
                continue
            best[j], came[j] = step, i
            heapq.heappush(queue, (step, j))
    if finish is None:
        return None
    path = [finish[1]]
    while path[-1] in came:
        path.append(came[path[-1]])
    return [points[k] for k in reversed(path)]


def route(a: pygame.Rect, b: pygame.Rect, keep_out: Sequence[pygame.Rect], clearance: float,
          side: float = 0.0, plates: Sequence[pygame.Rect] = (), screen: pygame.Rect | None = None,
          rather_not: Sequence[pygame.Rect] = ()) -> list[Point]:
    """The path of an arrow from plate ``a`` to plate ``b``: from edge to edge, at least
    ``clearance`` from every ``keep_out`` box, shifted ``side`` to its right (so two seats pointing
    at each other get two arrows side by side, each still clear); round the other ``plates`` too
    where it can (their names are words to keep readable as well), else over them, and round
    ``rather_not`` (a caption) where that still leaves a way; its turns stay on the ``screen``."""
    bounds = _box(screen) if screen is not None else (-10**6, -10**6, 2 * 10**6, 2 * 10**6)
    key = (_box(a), _box(b), tuple(map(_box, keep_out)), clearance, side, tuple(map(_box, plates)), bounds,
           tuple(map(_box, rather_not)))
    return list(_route(*key))


def _box(r: pygame.Rect) -> Box:
    return (r.x, r.y, r.width, r.height)


def _grow(box: pygame.Rect, by: float) -> pygame.Rect:
    return box.inflate(round(2 * by), round(2 * by))


@lru_cache(maxsize=512)
def _route(a_box: Box, b_box: Box, keep_boxes: tuple[Box, ...], clearance: float, side: float,
           plate_boxes: tuple[Box, ...], bounds: Box, rather_boxes: tuple[Box, ...]) -> tuple[Point, ...]:
    a, b = pygame.Rect(a_box), pygame.Rect(b_box)
    margin = clearance + abs(side)
    walls = [_grow(pygame.Rect(k), margin) for k in keep_boxes]
    around = [_grow(pygame.Rect(p), margin) for p in plate_boxes if p not in (a_box, b_box)]
    rather = [_grow(pygame.Rect(r), margin) for r in rather_boxes]
    centre_a, centre_b = (float(a.centerx), float(a.centery)), (float(b.centerx), float(b.centery))
    straight = [edge_point(a, centre_b), edge_point(b, centre_a)]
    if _clear(straight[0], straight[1], walls + around + rather):
        return _shifted(straight, side)
    # otherwise leave by a port of ``a``, turn round the boxes' corners, meet ``b`` at a port
    turns = [c for box in walls + around + rather for grow in (0.5, 1, 3) for c in _corners(_grow(box, grow * margin))]
    ports_a, ports_b = _ports(a, margin + 2), _ports(b, margin + 2)
    ends = [_grow(a, margin), _grow(b, margin)]
    on_screen = pygame.Rect(bounds)
    turns = [t for t in turns if on_screen.collidepoint(t) and not any(end.collidepoint(t) for end in ends)]
    costs_a = [math.dist(centre_a, p) for p in ports_a]
    costs_b = [math.dist(p, centre_b) for p in ports_b]
    path = (_shortest(ports_a, ports_b, costs_a, costs_b, turns, walls + around + rather + ends)
            or _shortest(ports_a, ports_b, costs_a, costs_b, turns, walls + around + ends)
            or _shortest(ports_a, ports_b, costs_a, costs_b, turns, walls + ends))
    if path is None:
        return _shifted(straight, side)
    points = _shifted([centre_a, *path, centre_b], side)  # the turns move aside; the ends stay on the plates,
    return (_nearest(a, points[1]), *points[1:-1], _nearest(b, points[-2]))  # straight out of a side or a corner


def _nearest(box: pygame.Rect, p: Point) -> Point:
    return (min(max(p[0], box.left), box.right), min(max(p[1], box.top), box.bottom))


def _shifted(points: list[Point], side: float) -> tuple[Point, ...]:
    dx, dy = points[-1][0] - points[0][0], points[-1][1] - points[0][1]
    length = math.hypot(dx, dy) or 1.0
    off = (-dy / length * side, dx / length * side)
    return tuple((x + off[0], y + off[1]) for x, y in points)


def cut(points: Sequence[Point], progress: float) -> list[Point]:
    """The first ``progress`` (0..1) of the path's length."""
    total = sum(math.dist(p, q) for p, q in zip(points, points[1:]))
    left = total * max(0.0, min(1.0, progress))
    out = [points[0]]
    for p, q in zip(points, points[1:]):
        step = math.dist(p, q)
        if step >= left:
            f = left / step if step else 0.0
            out.append((p[0] + (q[0] - p[0]) * f, p[1] + (q[1] - p[1]) * f))
            return out
        out.append(q)
        left -= step
    return out


def draw_path_arrow(surface: pygame.Surface, points: Sequence[Point], colour: theme.Colour, width: int,
                    head: float) -> None:
    """Straight stretches joined round, with a filled head at the last point."""
    if len(points) < 2:
        return
    for p, q in zip(points[:-2], points[1:-1]):
        pygame.draw.line(surface, colour, p, q, width)
        pygame.draw.circle(surface, colour, q, width / 2)
    shapes.arrow(surface, points[-2], points[-1], colour, width, head)


def draw_seat_arrow(surface: pygame.Surface, a: pygame.Rect, b: pygame.Rect, keep_out: Sequence[pygame.Rect],
                    colour: theme.Colour, u: float, progress: float, side: float = 0.0,
                    plates: Sequence[pygame.Rect] = (), rather_not: Sequence[pygame.Rect] = ()) -> None:
    """A pointer's arrow (dark outline, then its colour) from ``a`` to ``b`` round ``keep_out``
    (and the other ``plates`` and ``rather_not`` where it can)."""
    if progress <= 0:
        return
    points = cut(seat_route(surface.get_size(), a, b, keep_out, u, side, plates, rather_not), progress)
    draw_path_arrow(surface, points, (10, 10, 14), max(4, round(10 * u)), HEAD * u)
    draw_path_arrow(surface, points, colour, max(3, round(6 * u)), (HEAD - 5) * u)


def seat_route(size: tuple[int, int], a: pygame.Rect, b: pygame.Rect, keep_out: Sequence[pygame.Rect], u: float,
               side: float = 0.0, plates: Sequence[pygame.Rect] = (), rather_not: Sequence[pygame.Rect] = ()) -> list[Point]:
    """The whole path :func:`draw_seat_arrow` draws on a surface of ``size`` with these arguments
    (cached: a scene may call this a frame or more ahead, so no one frame routes many arrows)."""
    inside = pygame.Rect((0, 0), size).inflate(-2 * max(4, round(10 * u)), -2 * max(4, round(10 * u)))  # the whole line on screen
    return route(a, b, keep_out, arrow_clearance(u), side, plates, inside, rather_not)


def arrow_clearance(u: float) -> float:
    """How far an arrow's centre line keeps from a kept-out box: its head's half width (the widest
    part, at the end that may run along the box) and a little air."""
    return HEAD * u * 0.55 + 3 * u
