"""Make the small maps and scenario files shipped in src/searchkit_gridpath/data.

The maps are drawn by hand-written rules with a fixed seed; the optimal lengths come from
networkx's Dijkstra on a graph built here from the benchmark's rules (8 neighbours,
diagonals cost sqrt(2), no corner cutting), independently of the plugin's own code, so
the tests compare the plugin against something it did not compute.

    python tools/make_data.py   # rewrites src/searchkit_gridpath/data/*
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import networkx as nx

DATA = Path(__file__).resolve().parents[1] / "src" / "searchkit_gridpath" / "data"
PASSABLE = set(".GS")


def rooms(width: int = 32, height: int = 24, seed: int = 5) -> list[str]:
    """Rooms of 8x6 cells with a door or two in each wall, some trees and a pond."""
    rng = random.Random(seed)
    g = [["." for _ in range(width)] for _ in range(height)]
    for y in range(height):
        for x in range(width):
            if x % 8 == 7 or y % 6 == 5:
                g[y][x] = "@"
    for ry in range(0, height, 6):
        for x in range(7, width, 8):
            for _ in range(rng.randint(1, 2)):  # doors in the vertical walls
                g[ry + rng.randint(0, 4)][x] = "."
    for rx in range(0, width, 8):
        for y in range(5, height, 6):
            for _ in range(rng.randint(1, 2)):
                g[y][rx + rng.randint(0, 6)] = "."
    for _ in range(18):
        x, y = rng.randrange(width), rng.randrange(height)
        if g[y][x] == ".":
            g[y][x] = rng.choice("TTG")
    for y in range(13, 16):
        for x in range(18, 21):
            g[y][x] = "W"
    return ["".join(r) for r in g]


def maze(width: int = 25, height: int = 17, seed: int = 11, openings: int = 40) -> list[str]:
    """A depth-first maze with ``openings`` random cells knocked out (so there are loops), some swamp."""
    rng = random.Random(seed)
    g = [["@" for _ in range(width)] for _ in range(height)]
    stack = [(1, 1)]
    g[1][1] = "."
    while stack:
        x, y = stack[-1]
        options = [
            (x + dx, y + dy, dx, dy)
            for dx, dy in ((2, 0), (-2, 0), (0, 2), (0, -2))
            if 0 < x + dx < width - 1 and 0 < y + dy < height - 1 and g[y + dy][x + dx] == "@"
        ]
        if not options:
            stack.pop()
            continue
        nx_, ny, dx, dy = rng.choice(options)
        g[y + dy // 2][x + dx // 2] = "."
        g[ny][nx_] = "."
        stack.append((nx_, ny))
    for _ in range(openings):
        x, y = rng.randrange(1, width - 1), rng.randrange(1, height - 1)
        g[y][x] = "."
    for _ in range(12):
        x, y = rng.randrange(1, width - 1), rng.randrange(1, height - 1)
        if g[y][x] == ".":
            g[y][x] = "S"
    return ["".join(r) for r in g]


def graph(rows: list[str]) -> nx.Graph:
    h, w = len(rows), len(rows[0])
    ok = lambda x, y: 0 <= x < w and 0 <= y < h and rows[y][x] in PASSABLE  # noqa: E731
    G = nx.Graph()
    for y in range(h):
        for x in range(w):
            if not ok(x, y):
                continue
            G.add_node((x, y))
            for dx, dy in ((1, 0), (0, 1)):
                if ok(x + dx, y + dy):
                    G.add_edge((x, y), (x + dx, y + dy), weight=1.0)
            for dx, dy in ((1, 1), (-1, 1)):
                if ok(x + dx, y + dy) and ok(x + dx, y) and ok(x, y + dy):
                    G.add_edge((x, y), (x + dx, y + dy), weight=math.sqrt(2))
    return G


def write(name: str, rows: list[str], problems: int, seed: int, shortest: float = 0) -> None:
    """``name``.map and ``problems`` random start and goal pairs in its largest connected part,
    each at least ``shortest`` apart (8-connected), with their optimal lengths in ``name``.map.scen."""
    h, w = len(rows), len(rows[0])
    (DATA / f"{name}.map").write_text(f"type octile\nheight {h}\nwidth {w}\nmap\n" + "\n".join(rows) + "\n")
    G = graph(rows)
    biggest = max(nx.connected_components(G), key=len)
    cells = sorted(biggest)
    rng = random.Random(seed)
    lines = ["version 1"]
    while len(lines) <= problems:
        s, t = rng.sample(cells, 2)
        length = nx.dijkstra_path_length(G, s, t)
        if length < shortest:
            continue
        lines.append(f"{int(length // 4)}\t{name}.map\t{w}\t{h}\t{s[0]}\t{s[1]}\t{t[0]}\t{t[1]}\t{length:.8f}")
    (DATA / f"{name}.map.scen").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    DATA.mkdir(parents=True, exist_ok=True)
    write("rooms", rooms(), 12, 1)
    write("maze", maze(), 12, 2)
    write("rooms-large", rooms(256, 192), 12, 3)
    # the compiled bench's map: A* with Manhattan distance floods the corridors (tens of
    # thousands of expansions a problem, paths of hundreds of steps), long enough to time the kernels
    write("maze-large", maze(255, 191, 13, openings=1500), 12, 4, shortest=700)
