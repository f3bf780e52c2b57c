"""The ``gridpath`` domain: options, problem building, output and benchmark instances."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from searchkit import Domain, GridView, Heuristic, InputError, Instance, Param, Result

from .movingai import GridMap, check_cells, check_fits, load_map, load_scen, map_of_scenario
from .problem import DIRECTION, GridProblem, euclidean, octile

BUNDLED = "gridpath:"
DRAW_MAX = 120  # maps wider or taller than this are not drawn in the text output


def bundled_names() -> list[str]:
    data = resources.files("searchkit_gridpath") / "data"
    return sorted(p.name[: -len(".map.scen")] for p in data.iterdir() if p.name.endswith(".map.scen"))


def bundled_scen(name: str) -> Path:
    """The shipped scenario file called ``name`` (``gridpath:NAME`` on the command line)."""
    path = Path(str(resources.files("searchkit_gridpath") / "data" / f"{name}.map.scen"))
    if not path.is_file():
        raise InputError(f"unknown bundled scenario set {name!r} (known: {', '.join(bundled_names())})")
    return path


def resolve_scen(path: Path) -> Path:
    """A path, or ``gridpath:NAME`` (possibly after a suite made it relative to its folder)."""
    text = str(path)
    if BUNDLED in text:
        return bundled_scen(text.split(BUNDLED, 1)[1])
    return path


@lru_cache(maxsize=8)
def _cached_map(path: Path, mtime: float) -> GridMap:
    return load_map(path)


def read_map(path: Path) -> GridMap:
    """A map, parsed once per process while the file stays unchanged."""
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return load_map(path)  # raises the one-line error
    return _cached_map(path, mtime)


def parse_xy(text: str, option: str) -> tuple[int, int]:
    parts = text.replace(" ", "").split(",")
    try:
        x, y = (int(p) for p in parts)
    except ValueError:
        raise InputError(f"--{option} takes 'x,y' (0-based column and row), got {text!r}") from None
    return x, y


class GridPathDomain(Domain):
    name = "gridpath"
    summary = "grid path-finding on Moving AI benchmark maps (.map/.scen), 4- or 8-connected"
    params = [
        Param("map", Path, None, "Moving AI .map file (default: the map the --scen line names)"),
        Param("scen", Path, None, "Moving AI .scen file, or gridpath:NAME for a shipped one"),
        Param("index", int, 1, "which problem of the .scen file (1-based)"),
        Param("start", str, None, "start cell 'x,y' (0-based column,row) instead of --scen"),
        Param("goal", str, None, "goal cell 'x,y' instead of --scen"),
        Param("connectivity", int, 8, "8 (diagonals cost sqrt 2, no corner cutting) or 4"),
        Param("draw", bool, False, "draw the path on the map (maps up to 120x120)", output=True),
    ]

    def builtin_heuristics(self) -> dict[str, Heuristic]:
        return {
            "octile": Heuristic(
                "octile", summary="free-space distance: octile (8-connected), Manhattan (4)", consistent=True
            ),
            "euclidean": Heuristic(
                "euclidean", summary="straight-line distance (weaker, always admissible)", consistent=True
            ),
        }

    def defaults(self, options: dict[str, Any]) -> tuple[str, str | None, dict[str, Any]]:
        return "astar", "octile", {}

    def check_instances(self) -> list[dict[str, Any]]:
        return [
            {"scen": Path("gridpath:maze"), "index": 1},
            {"scen": Path("gridpath:rooms"), "index": 2},
            {"scen": Path("gridpath:rooms"), "index": 2, "connectivity": 4},
        ]

    def make_problem(self, options: dict[str, Any], heuristic: Heuristic | None) -> GridProblem:
        connectivity = options.get("connectivity", 8)
        if connectivity not in (4, 8):
            raise InputError(f"--connectivity must be 4 or 8 (got {connectivity})")
        scen, map_path = options.get("scen"), options.get("map")
        given = options.get("start") is not None or options.get("goal") is not None
        if scen is not None:
            if given:
                raise InputError("give --scen (and --index) or --start and --goal, not both")
            scen = resolve_scen(Path(scen))
            scenarios = load_scen(scen)
            index = options.get("index", 1)
            if not 1 <= index <= len(scenarios):
                raise InputError(f"--index {index} is out of range: {scen.name} has {len(scenarios)} problems")
            scenario = scenarios[index - 1]
            grid = read_map(Path(map_path) if map_path is not None else map_of_scenario(scen, scenario))
            check_fits(grid, scenario, f"{scen.name} line {scenario.line}")
            start, goal = scenario.start, scenario.goal
            optimal = scenario.optimal
        else:
            if map_path is None or options.get("start") is None or options.get("goal") is None:
                raise InputError("give --scen FILE (and --index N), or --map FILE with --start x,y and --goal x,y")
            grid = read_map(Path(map_path))
            start, goal = parse_xy(options["start"], "start"), parse_xy(options["goal"], "goal")
            check_cells(grid, start, goal, grid.name)
            optimal = None
        problem = GridProblem(grid, start, goal, connectivity)
        problem.optimal = optimal
        if heuristic is not None:
            if heuristic.name == "octile":
                problem.use_heuristic(octile)
            elif heuristic.name == "euclidean":
                problem.use_heuristic(euclidean)
            elif heuristic.make is not None:  # a heuristic another plugin added
                problem.heuristic = heuristic.make(problem)
        return problem

    # -- output ---------------------------------------------------------------------------------
    def state_json(self, problem: GridProblem, state: int) -> list[int]:
        return list(problem.xy(state))

    def grid_view(self, problem: GridProblem) -> GridView:
        """Each state is a cell: the web app draws the search on the map."""
        grid = problem.grid
        rows = tuple(
            "".join("." if grid.passable(x, y) else "#" for x in range(grid.width)) for y in range(grid.height)
        )
        return GridView(rows, problem.start_xy, (problem.goal_xy,), problem.xy)

    def format_solution(self, problem: GridProblem, result: Result, options: dict[str, Any]) -> str:
        path = [problem.xy(s) for s in result.states]
        lines = [f"path ({len(path)} cells): " + " ".join(f"{x},{y}" for x, y in path)]
        if problem.optimal is not None:
            lines.append(f"optimal length in the .scen file: {problem.optimal:g}")
        if options.get("draw"):
            lines.append(draw_path(problem, path))
        return "\n".join(lines)

    def solution_json(self, problem: GridProblem, result: Result, options: dict[str, Any]) -> dict[str, Any]:
        extra: dict[str, Any] = {
            "map": problem.grid.name,
            "connectivity": problem.connectivity,
            "goal": list(problem.goal_xy),
            "scen_optimal": problem.optimal,
        }
        if result.solved:
            extra["path"] = [list(problem.xy(s)) for s in result.states]
        return extra

    # -- benchmarks ------------------------------------------------------------------------------
    def load_instances(self, source: str, base_dir: Path) -> list[Instance]:
        """Every problem of a ``.scen`` file (a path relative to the suite, or
        ``gridpath:NAME``), with the file's optimal length as the expected cost.

        The lengths are for 8-connected moves: a configuration with ``connectivity = 4``
        will (rightly) not match them.  ``SOURCE?connectivity=4`` gives the same problems
        4-connected (each instance's options say so) and without expected costs.
        """
        source, connectivity = split_connectivity(source)
        if source.startswith(BUNDLED):
            path = bundled_scen(source[len(BUNDLED) :])
        else:
            path = Path(source) if Path(source).is_absolute() else base_dir / source
        scenarios = load_scen(path)
        for s in scenarios:  # check every line against its map now, not in the workers
            check_fits(read_map(map_of_scenario(path, s)), s, f"{path.name} line {s.line}")
        stem = path.name[: -len(".map.scen")] if path.name.endswith(".map.scen") else path.stem
        if connectivity == 4:
            return [
                Instance(f"{stem}-{s.number}", {"scen": path, "index": s.number, "connectivity": 4}) for s in scenarios
            ]
        return [Instance(f"{stem}-{s.number}", {"scen": path, "index": s.number}, s.optimal) for s in scenarios]


def split_connectivity(source: str) -> tuple[str, int]:
    """``SOURCE?connectivity=N`` (N 4 or 8) as ``(SOURCE, N)``; a source without it as
    ``(source, 8)``.  Anything else after ``?`` is an `InputError`."""
    if "?" not in source:
        return source, 8
    head, _, tail = source.partition("?")
    key, _, value = tail.partition("=")
    if key != "connectivity" or value not in ("4", "8"):
        raise InputError(f"{source!r}: after '?' only connectivity=4 or connectivity=8 (got {tail!r})")
    return head, int(value)


def draw_path(problem: GridProblem, path: list[tuple[int, int]]) -> str:
    """The map with the path drawn: ``A`` start, ``B`` goal, ``*`` the cells between
    (letters that are no terrain)."""
    grid = problem.grid
    if grid.width > DRAW_MAX or grid.height > DRAW_MAX:
        return f"(the {grid.width}x{grid.height} map is too large to draw)"
    rows = [list(row) for row in grid.rows]
    for x, y in path[1:-1]:
        rows[y][x] = "*"
    if path:
        (sx, sy), (gx, gy) = path[0], path[-1]
        rows[sy][sx], rows[gy][gx] = "A", "B"
    return "\n".join("".join(r) for r in rows)


def step_action(dx: int, dy: int) -> str:
    """The action name of a unit step (used by engines that rebuild paths)."""
    for name, d in DIRECTION.items():
        if d == (dx, dy):
            return name
    raise ValueError(f"no move ({dx}, {dy})")
