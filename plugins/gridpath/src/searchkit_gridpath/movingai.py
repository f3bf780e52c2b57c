"""The Moving AI grid benchmark formats: ``.map`` octile maps and ``.scen`` scenario files.

A map (https://movingai.com/benchmarks/formats.html)::

    type octile
    height 4
    width 6
    map
    ......
    .@@...
    ......

``.`` ``G`` and ``S`` (ground, grass, swamp) are passable; ``@`` ``O`` (out of bounds),
``T`` (trees) and ``W`` (water) are not, as in the benchmark's own problems.

A scenario file has a ``version 1`` line and then one problem a line, tab-separated:
bucket, map, map width, map height, start x, start y, goal x, goal y, optimal length.
Coordinates are 0-based, x the column and y the row from the top; the optimal length is
for 8-connected moves costing 1 straight and sqrt(2) diagonally, with no corner cutting.

Every problem with a file is one `InputError` line naming the file, the line and what is
wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from searchkit import InputError

PASSABLE = frozenset(".GS")
BLOCKED = frozenset("@OTW")
SCEN_FIELDS = "bucket, map, width, height, start x, start y, goal x, goal y, optimal length"


@dataclass(frozen=True)
class GridMap:
    """A parsed map: ``rows[y][x]`` is the terrain character."""

    name: str
    width: int
    height: int
    rows: tuple[str, ...]

    def passable(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height and self.rows[y][x] in PASSABLE


@dataclass(frozen=True)
class Scenario:
    """One problem of a ``.scen`` file: ``number`` is its 1-based position among the
    problems, ``line`` its line in the file."""

    number: int
    line: int
    bucket: int
    map_name: str
    width: int
    height: int
    start: tuple[int, int]
    goal: tuple[int, int]
    optimal: float


def _read(path: Path, what: str) -> list[str]:
    try:
        return path.read_text(encoding="utf-8-sig").splitlines()
    except FileNotFoundError:
        raise InputError(f"{what} {path} not found") from None
    except IsADirectoryError:
        raise InputError(f"{what} {path} is a directory") from None
    except UnicodeDecodeError:
        raise InputError(f"{what} {path} is not a text file") from None
    except OSError as e:
        raise InputError(f"cannot read {what} {path}: {e.strerror or e}") from None


def parse_map(text_lines: list[str], name: str) -> GridMap:
    """Parse the lines of a ``.map`` file (``name`` goes into the error messages)."""
    header: dict[str, str] = {}
    n = 0
    for n, line in enumerate(text_lines, 1):
        words = line.split()
        if not words:
            continue
        key = words[0].lower()
        if key == "map" and len(words) == 1:
            break
        if key not in ("type", "height", "width") or len(words) != 2:
            raise InputError(
                f"{name} line {n}: expected a header line 'type octile', 'height N', 'width N' "
                f"or 'map', got {line.strip()[:40]!r}"
            )
        if key in header:
            raise InputError(f"{name} line {n}: '{key}' given twice")
        header[key] = words[1]
    else:
        raise InputError(f"{name}: no 'map' line (a Moving AI map starts with type, height, width and 'map')")
    for key in ("type", "height", "width"):
        if key not in header:
            raise InputError(f"{name}: the header has no '{key}' line")
    if header["type"] != "octile":
        raise InputError(f"{name}: map type {header['type']!r} is not supported (only 'octile')")
    size = {}
    for key in ("height", "width"):
        try:
            size[key] = int(header[key])
        except ValueError:
            size[key] = 0
        if size[key] < 1:
            raise InputError(f"{name}: {key} must be a positive integer, got {header[key]!r}")
    width, height = size["width"], size["height"]
    body = [line.rstrip("\r\n") for line in text_lines[n:]]
    while body and not body[-1].strip():
        body.pop()
    if len(body) != height:
        raise InputError(f"{name}: the header says {height} rows, the map has {len(body)}")
    known = PASSABLE | BLOCKED
    for y, row in enumerate(body):
        if len(row) != width:
            raise InputError(f"{name} line {n + 1 + y}: row {y} has {len(row)} cells, the header says {width}")
        for x, ch in enumerate(row):
            if ch not in known:
                raise InputError(
                    f"{name} line {n + 1 + y}, column {x + 1}: unknown terrain {ch!r} "
                    f"(known: {' '.join(sorted(known))})"
                )
    return GridMap(name, width, height, tuple(body))


def load_map(path: Path) -> GridMap:
    return parse_map(_read(path, "map file"), path.name)


def parse_scen(text_lines: list[str], name: str) -> list[Scenario]:
    """Parse the lines of a ``.scen`` file."""
    out = []
    for n, line in enumerate(text_lines, 1):
        if not line.strip():
            continue
        if n == 1 and line.split()[0].lower() == "version":
            continue
        fields = line.rstrip("\r\n").split("\t")
        if len(fields) != 9:
            fields = line.split()
        if len(fields) != 9:
            raise InputError(f"{name} line {n}: expected 9 fields ({SCEN_FIELDS}), got {len(fields)}")
        try:
            bucket, width, height, sx, sy, gx, gy = (int(fields[i]) for i in (0, 2, 3, 4, 5, 6, 7))
            optimal = float(fields[8])
        except ValueError:
            raise InputError(f"{name} line {n}: expected whole numbers and a length ({SCEN_FIELDS})") from None
        if width < 1 or height < 1 or not optimal >= 0 or optimal == float("inf"):
            raise InputError(f"{name} line {n}: bad map size {width}x{height} or optimal length {fields[8]!r}")
        for label, (x, y) in (("start", (sx, sy)), ("goal", (gx, gy))):
            if not (0 <= x < width and 0 <= y < height):
                raise InputError(f"{name} line {n}: {label} ({x}, {y}) is outside the {width}x{height} map")
        out.append(Scenario(len(out) + 1, n, bucket, fields[1].strip(), width, height, (sx, sy), (gx, gy), optimal))
    if not out:
        raise InputError(f"{name} holds no problems")
    return out


def load_scen(path: Path) -> list[Scenario]:
    return parse_scen(_read(path, "scenario file"), path.name)


def map_of_scenario(scen_path: Path, scenario: Scenario) -> Path:
    """Where the scenario's map is: its map column relative to the ``.scen``'s folder, or
    the map's file name there (benchmark files name maps like ``maps/dao/arena.map``)."""
    column = Path(scenario.map_name)
    for candidate in (scen_path.parent / column, scen_path.parent / column.name):
        if candidate.is_file():
            return candidate
    raise InputError(f"{scen_path.name}: cannot find the map {scenario.map_name!r} next to it (give --map)")


def check_fits(grid: GridMap, scenario: Scenario, where: str) -> None:
    """A scenario's size and cells must fit the map it is run on."""
    if (scenario.width, scenario.height) != (grid.width, grid.height):
        raise InputError(
            f"{where}: the scenario is for a {scenario.width}x{scenario.height} map, "
            f"{grid.name} is {grid.width}x{grid.height}"
        )
    check_cells(grid, scenario.start, scenario.goal, where)


def check_cells(grid: GridMap, start: tuple[int, int], goal: tuple[int, int], where: str) -> None:
    for label, (x, y) in (("start", start), ("goal", goal)):
        if not (0 <= x < grid.width and 0 <= y < grid.height):
            raise InputError(f"{where}: {label} ({x}, {y}) is outside the {grid.width}x{grid.height} map")
        if not grid.passable(x, y):
            raise InputError(f"{where}: {label} ({x}, {y}) is a blocked cell ({grid.rows[y][x]!r})")
