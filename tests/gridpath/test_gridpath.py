"""The example plugin (plugins/gridpath), installed for real and run through the CLI.

A session fixture builds and installs the separate distribution with pip into a private
folder (``--target``), so the tests see exactly what a user's ``pip install`` gives -
entry point, package data - without changing the environment they run in.  The CLI runs
in subprocesses with that folder on PYTHONPATH; the unit tests import the installed
package and register its hooks for the duration of one test.
"""

from __future__ import annotations

import heapq
import itertools
import json
import math
import random
from collections import deque
from pathlib import Path

import pytest
from processes import run_with_plugin as run

from searchkit import InputError, dijkstra, replay

SQRT2 = math.sqrt(2)


def data(installed: Path, name: str) -> Path:
    return installed / "searchkit_gridpath" / "data" / name


def scen_lines(path: Path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text().splitlines()[1:] if line.strip()]


# -- an oracle that shares no code with the plugin ---------------------------------------------


def shortest(rows: list[str], start, goal, connectivity: int = 8) -> float | None:
    """Dijkstra on the Moving AI rules, written out again here."""
    h, w = len(rows), len(rows[0])

    def ok(x, y):
        return 0 <= x < w and 0 <= y < h and rows[y][x] in ".GS"

    dist = {start: 0.0}
    heap = [(0.0, start)]
    while heap:
        d, (x, y) = heapq.heappop(heap)
        if (x, y) == goal:
            return d
        if d > dist[(x, y)]:
            continue
        steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
        if connectivity == 8:
            steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
        for dx, dy in steps:
            if not ok(x + dx, y + dy) or (dx and dy and not (ok(x + dx, y) and ok(x, y + dy))):
                continue
            nd = d + (SQRT2 if dx and dy else 1)
            if nd < dist.get((x + dx, y + dy), math.inf):
                dist[(x + dx, y + dy)] = nd
                heapq.heappush(heap, (nd, (x + dx, y + dy)))
    return None


def random_rows(rng: random.Random, w: int, h: int, density: float) -> list[str]:
    return ["".join("@" if rng.random() < density else rng.choice("..GS") for _ in range(w)) for _ in range(h)]


def random_maps(seed: int, trials: int):
    """``(trial, rows, start, goal, grid)`` for random maps of 2x2 to 14x14 cells with two
    distinct free cells, a parsed grid each (maps with fewer free cells are passed over)."""
    from searchkit_gridpath.movingai import parse_map

    rng = random.Random(seed)
    for trial in range(trials):
        w, h = rng.randint(2, 14), rng.randint(2, 14)
        rows = random_rows(rng, w, h, rng.choice([0.1, 0.25, 0.4]))
        free = [(x, y) for y in range(h) for x in range(w) if rows[y][x] != "@"]
        if len(free) < 2:
            continue
        start, goal = rng.sample(free, 2)
        yield trial, rows, start, goal, parse_map(["type octile", f"height {h}", f"width {w}", "map", *rows], "r.map")


# -- installation and registration ---------------------------------------------------------------


def test_installed_distribution_has_entry_point_and_data(installed):
    dist = next(installed.glob("searchkit_gridpath-*.dist-info"))
    assert "[searchkit]\ngridpath = searchkit_gridpath.plugin" in (dist / "entry_points.txt").read_text()
    assert {p.name for p in (installed / "searchkit_gridpath" / "data").iterdir()} >= {
        "rooms.map",
        "rooms.map.scen",
        "maze.map",
        "maze.map.scen",
    }


def test_cli_lists_the_domain_engine_and_npuzzle_heuristic(installed):
    domains = {d["name"]: d for d in json.loads(run(installed, "domains", "--json").stdout)}
    assert domains["gridpath"]["default_engine"] == "astar" and domains["gridpath"]["default_heuristic"] == "octile"
    assert "inversion-max" in domains["npuzzle"]["heuristics"]
    engines = {e["name"]: e for e in json.loads(run(installed, "engines", "--json").stdout)}
    assert engines["jps"]["optimal"] == "cost"


def test_plugin_imports_only_the_public_api(installed):
    for path in (installed / "searchkit_gridpath").glob("*.py"):
        for line in path.read_text().splitlines():
            if line.startswith(("import searchkit", "from searchkit")) and "searchkit_gridpath" not in line:
                assert line.startswith("from searchkit import "), f"{path.name}: {line}"


# -- the CLI against the .scen file's optimal lengths ---------------------------------------------


def test_solve_scenarios_through_the_cli(installed):
    scen = data(installed, "maze.map.scen")
    lines = scen_lines(scen)
    for engine, index in (("astar", 3), ("jps", len(lines))):
        result = run(installed, "solve", "gridpath", "--scen", str(scen), "--index", str(index), "-e", engine, "--json")
        assert result.returncode == 0, result.stderr
        doc = json.loads(result.stdout)
        expected = float(lines[index - 1][8])
        assert doc["cost"] == pytest.approx(expected, abs=1e-6) and doc["guarantee"] == "optimal"
        assert doc["path"][0] == [int(lines[index - 1][4]), int(lines[index - 1][5])]
        assert doc["path"][-1] == [int(lines[index - 1][6]), int(lines[index - 1][7])]


def test_solve_bundled_name_draw_and_four_connected(installed):
    rows = data(installed, "rooms.map").read_text().splitlines()[4:]
    shown = run(installed, "solve", "gridpath", "--scen", "gridpath:rooms", "--index", "2", "--draw")
    assert shown.returncode == 0, shown.stderr
    assert "A" in shown.stdout and "B" in shown.stdout and "optimal length in the .scen file" in shown.stdout
    result = run(
        installed,
        "solve",
        "gridpath",
        "--map",
        str(data(installed, "rooms.map")),
        "--start",
        "1,0",
        "--goal",
        "30,22",
        "--connectivity",
        "4",
        "--json",
    )
    doc = json.loads(result.stdout)
    assert doc["cost"] == shortest(rows, (1, 0), (30, 22), 4) and doc["connectivity"] == 4
    assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in zip(doc["path"], doc["path"][1:]))


def test_bench_suite_checks_every_optimal_length(installed, tmp_path):
    out = tmp_path / "g.jsonl"
    result = run(installed, "bench", "configs/gridpath.toml", "-o", str(out), "-j", "2", "--json")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    lines = scen_lines(data(installed, "rooms.map.scen"))
    assert doc["ok"] and len(doc["records"]) == len(lines) * len(doc["configs"])
    for r in doc["records"]:
        assert r["status"] == "solved" and r["cost_ok"] is True, r
        assert r["cost"] == pytest.approx(float(lines[int(r["instance"].split("-")[1]) - 1][8]), abs=1e-6)
    jps = sum(r["stats"]["expanded"] for r in doc["records"] if r["config"] == "jps")
    astar = sum(r["stats"]["expanded"] for r in doc["records"] if r["config"] == "astar-octile")
    assert jps < astar  # what jump points are for


# -- bad input -------------------------------------------------------------------------------------

MAP = "type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n"


@pytest.mark.parametrize(
    "text, words",
    [
        (MAP.replace("type octile", "type hex"), "map type 'hex' is not supported"),
        (MAP.replace("height 3", "height three"), "height must be a positive integer"),
        (MAP.replace("width 4\n", ""), "no 'width' line"),
        (MAP.replace("map\n", ""), "line 4: expected a header line"),
        (MAP.replace("height 3", "height 4"), "says 4 rows, the map has 3"),
        (MAP.replace(".@@.", ".@@"), "line 6: row 1 has 3 cells"),
        (MAP.replace(".@@.", ".@x."), "line 6, column 3: unknown terrain 'x'"),
        (MAP.replace("type octile\n", "type octile\ntype octile\n"), "'type' given twice"),
    ],
)
def test_bad_maps_are_one_line_errors(gridpath, tmp_path, text, words):
    from searchkit_gridpath.movingai import load_map

    path = tmp_path / "bad.map"
    path.write_text(text)
    with pytest.raises(InputError) as info:
        load_map(path)
    assert words in str(info.value) and "\n" not in str(info.value) and "bad.map" in str(info.value)


@pytest.mark.parametrize(
    "line, words",
    [
        ("0\tm.map\t4\t3\t0\t0\t3", "expected 9 fields"),
        ("0\tm.map\t4\t3\t0\t0\t3\tx\t5", "expected whole numbers"),
        ("0\tm.map\t4\t3\t0\t0\t4\t2\t5", "goal (4, 2) is outside the 4x3 map"),
        ("0\tm.map\t4\t3\t-1\t0\t3\t2\t5", "start (-1, 0) is outside"),
        ("0\tm.map\t5\t3\t0\t0\t3\t2\t5", "scenario is for a 5x3 map, m.map is 4x3"),
        ("0\tm.map\t4\t3\t1\t1\t3\t2\t5", "start (1, 1) is a blocked cell ('@')"),
        ("0\tother.map\t4\t3\t0\t0\t3\t2\t5", "cannot find the map 'other.map'"),
    ],
)
def test_bad_scenarios_are_one_line_errors(gridpath, tmp_path, line, words):
    (tmp_path / "m.map").write_text(MAP)
    scen = tmp_path / "m.map.scen"
    scen.write_text(f"version 1\n0\tm.map\t4\t3\t0\t0\t3\t2\t5\n{line}\n")
    domain = gridpath.domain.GridPathDomain()
    with pytest.raises(InputError) as info:
        domain.load_instances(str(scen.name), tmp_path)
    message = str(info.value)
    assert words in message and "\n" not in message and message.startswith("m.map.scen"), message


def test_bad_options_and_cli_exit_code(installed, gridpath, tmp_path):
    from searchkit.solving import prepare

    (tmp_path / "m.map").write_text(MAP)
    base = {"map": tmp_path / "m.map"}
    for options, words in [
        ({**base, "start": "0,0"}, "give --scen FILE"),
        ({**base, "start": "0;0", "goal": "3,2"}, "--start takes 'x,y'"),
        ({**base, "start": "0,0", "goal": "9,2"}, "goal (9, 2) is outside"),
        ({**base, "start": "0,0", "goal": "3,2", "connectivity": 6}, "--connectivity must be 4 or 8"),
        (
            {"scen": "gridpath:nosuch"},
            "unknown bundled scenario set 'nosuch' (known: maze, maze-large, rooms, rooms-large)",
        ),
        ({"scen": "gridpath:maze", "index": 99}, "--index 99 is out of range: maze.map.scen has 12 problems"),
        ({"scen": "gridpath:maze", "start": "1,1"}, "not both"),
    ]:
        with pytest.raises(InputError, match=words.replace("(", r"\(").replace(")", r"\)")):
            prepare("gridpath", options)
    job = prepare("gridpath", {**base, "start": "0,0", "goal": "3,2", "connectivity": 4}, "jps")
    with pytest.raises(InputError, match="'jps' needs --connectivity 8"):
        job.engine.run(job.problem)
    result = run(installed, "solve", "gridpath", "--map", str(tmp_path / "m.map"), "--start", "1,1", "--goal", "3,2")
    assert result.returncode == 2 and result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1
    result = run(installed, "solve", "npuzzle", "--size", "3", "-e", "jps")
    assert result.returncode == 2 and "jps' works on gridpath only, not on npuzzle" in result.stderr


# -- the engine and the heuristics, against the oracle -----------------------------------------------


def test_jps_and_astar_are_optimal_on_random_maps(gridpath):
    from searchkit_gridpath.jps import jps
    from searchkit_gridpath.problem import GridProblem, euclidean, octile

    from searchkit import astar

    checked = 0
    for trial, rows, start, goal, grid in random_maps(7, 160):
        expected = shortest(rows, start, goal)
        for engine, estimate in ((jps, None), (astar, octile), (astar, euclidean)):
            problem = GridProblem(grid, start, goal, 8)
            if estimate is not None:
                problem.use_heuristic(estimate)
            result = engine(problem)
            if expected is None:
                assert result.status == "no-solution", (trial, engine)
            else:
                assert result.cost == pytest.approx(expected, abs=1e-9), (trial, engine, rows, start, goal)
                assert replay(problem, result) == pytest.approx(expected)
                checked += 1
        want4 = shortest(rows, start, goal, 4)
        got4 = dijkstra(GridProblem(grid, start, goal, 4))
        assert got4.cost == (None if want4 is None else pytest.approx(want4))
    assert checked > 200


def test_jps_honours_limits_and_reports_stats(gridpath):
    from searchkit_gridpath.movingai import parse_map
    from searchkit_gridpath.problem import GridProblem

    from searchkit import Limits

    rows = ["." * 60] * 60
    grid = parse_map(["type octile", "height 60", "width 60", "map", *rows], "open.map")
    result = gridpath.jps.jps(GridProblem(grid, (0, 0), (59, 37)))
    assert result.solved and result.cost == pytest.approx(22 + 37 * SQRT2)
    assert result.stats.expanded <= 3 and len(result.states) == 60
    stopped = gridpath.jps.jps(GridProblem(grid, (0, 0), (59, 37)), limits=Limits(max_expanded=1))
    assert stopped.status == "limit" and stopped.stats.limit_reason == "nodes"


def test_jps_is_the_core_search_with_its_events_and_exact_costs(gridpath):
    """JPS runs on BestFirstSearch: the core's event kinds, events matching the statistics,
    progress at limit checks; and its jump costs add up exactly, so equal paths tie."""
    import random

    from searchkit_gridpath.movingai import parse_map
    from searchkit_gridpath.problem import GridProblem

    from searchkit import Observer

    class Log(Observer):
        def __init__(self):
            self.expanded, self.kinds = 0, []

        def expand(self, state, g, h):
            self.expanded += 1

        def generate(self, parent, action, child, g, h, kind):
            self.kinds.append(kind)

    rng = random.Random(7)
    rows = ["".join("@" if rng.random() < 0.2 else "." for _ in range(80)) for _ in range(80)]
    grid = parse_map(["type octile", "height 80", "width 80", "map", *rows], "random.map")
    free = [(x, y) for y in range(80) for x in range(80) if grid.passable(x, y)]
    for _ in range(10):
        start, goal = rng.sample(free, 2)
        log = Log()
        result = gridpath.jps.jps(GridProblem(grid, start, goal), observer=log)
        assert set(log.kinds) <= {"new", "duplicate", "improved", "reopened"}
        assert (log.expanded, len(log.kinds)) == (result.stats.expanded, result.stats.generated)
        assert result.stats.reopened == 0  # octile is consistent and the costs are exact
    d = gridpath.jps.DIAGONAL
    assert abs(d - SQRT2) < 1e-9 and (3 * d + 1) + d == (d + 1) + 3 * d  # exact in any order


def random_grid(rng: random.Random, w: int, h: int, density: float):
    from searchkit_gridpath.movingai import parse_map

    rows = random_rows(rng, w, h, density)
    return rows, parse_map(["type octile", f"height {h}", f"width {w}", "map", *rows], "r.map")


def test_jps_costs_what_astar_costs_on_random_grids(gridpath):
    """JPS against A* with the octile heuristic (admissible, so its cost is optimal) on 50
    seeded random grids with obstacles: the same cost, a path of single steps that
    searchkit's replay accepts, and (solvable or not) the same answer."""
    from searchkit_gridpath.problem import DIRECTION, GridProblem, octile

    from searchkit import astar

    rng = random.Random(2024)
    solved = 0
    for trial in range(50):
        w, h = rng.randint(5, 40), rng.randint(5, 40)
        rows, grid = random_grid(rng, w, h, rng.choice([0.1, 0.2, 0.3, 0.4]))
        free = [(x, y) for y in range(h) for x in range(w) if rows[y][x] != "@"]
        start, goal = rng.sample(free, 2)
        reference = GridProblem(grid, start, goal, 8)
        reference.use_heuristic(octile)
        want = astar(reference)
        problem = GridProblem(grid, start, goal, 8)
        got = gridpath.jps.jps(problem)
        assert got.status == want.status, (trial, rows, start, goal)
        if not got.solved:
            continue
        solved += 1
        assert got.cost == pytest.approx(want.cost, abs=1e-9), (trial, rows, start, goal)
        assert replay(problem, got) == pytest.approx(got.cost, abs=1e-9)
        assert set(got.actions) <= set(DIRECTION) and len(got.states) == len(got.actions) + 1
        cells = [problem.xy(c) for c in got.states]
        assert cells[0] == start and cells[-1] == goal
        assert all(max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1 for a, b in itertools.pairwise(cells))
    assert solved >= 30


def sealed_map():
    """A 150x150 random map whose goal is walled in: JPS visits every reachable jump point."""
    from searchkit_gridpath.movingai import parse_map
    from searchkit_gridpath.problem import GridProblem

    rng = random.Random(3)
    rows = [list(row) for row in random_rows(rng, 150, 150, 0.2)]
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            rows[140 + dy][140 + dx] = "@" if dx or dy else "."
    rows[5][5] = "."
    grid = parse_map(["type octile", "height 150", "width 150", "map", *("".join(r) for r in rows)], "sealed.map")
    return lambda: GridProblem(grid, (5, 5), (140, 140))


def test_jps_limits_stop_it_with_status_limit(gridpath):
    """Every kind of limit stops JPS with status "limit", the reason and the statistics so
    far (the core's checks: nodes exactly, the others at its periodic check)."""
    from searchkit import Limits
    from searchkit.limits import FIRST_CHECK

    jps, problem = gridpath.jps.jps, sealed_map()
    unlimited = jps(problem())
    assert unlimited.status == "no-solution" and unlimited.stats.expanded > 2048
    for limits, reason, expanded in [
        (Limits(max_expanded=1), "nodes", 1),
        (Limits(max_expanded=700), "nodes", 700),
        (Limits(max_stored=10), "states", FIRST_CHECK),
        (Limits(timeout_s=0), "time", FIRST_CHECK),
    ]:
        result = jps(problem(), limits=limits)
        assert result.status == "limit" and not result.solved and not result.actions and result.cost is None, limits
        assert result.stats.limit_reason == reason and result.stats.expanded == expanded, limits
        assert 0 < result.stats.generated and 0 < result.stats.stored <= unlimited.stats.stored
    interrupted = Limits()
    interrupted.interrupt.set()
    assert jps(problem(), limits=interrupted).stats.limit_reason == "interrupted"


def test_jps_observer_hears_the_core_events(gridpath):
    """An observer sees the core's events: the core's generation kinds only ("improved" for
    an open jump point reached more cheaply, never "reopened": octile is consistent and
    the costs exact), one expand per expansion, grid directions as actions, and progress
    at the core's periodic checks."""
    from searchkit_gridpath.problem import DIRECTION, GridProblem

    from searchkit import Observer
    from searchkit.limits import CHECK_EVERY, FIRST_CHECK

    class Log(Observer):
        def __init__(self):
            self.expanded, self.checks = 0, []
            self.kinds: dict[str, int] = {}
            self.actions = set()

        def expand(self, state, g, h):
            self.expanded += 1

        def generate(self, parent, action, child, g, h, kind):
            self.kinds[kind] = self.kinds.get(kind, 0) + 1
            self.actions.add(action)

        def progress(self, expanded, generated, best):
            self.checks.append(expanded)

    rng = random.Random(5)
    kinds: dict[str, int] = {}
    for _ in range(40):
        w, h = rng.randint(10, 60), rng.randint(10, 60)
        rows, grid = random_grid(rng, w, h, rng.choice([0.1, 0.2, 0.3]))
        free = [(x, y) for y in range(h) for x in range(w) if rows[y][x] != "@"]
        start, goal = rng.sample(free, 2)
        log = Log()
        result = gridpath.jps.jps(GridProblem(grid, start, goal), observer=log)
        assert log.expanded == result.stats.expanded and sum(log.kinds.values()) == result.stats.generated
        assert log.actions <= set(DIRECTION)
        for kind, n in log.kinds.items():
            kinds[kind] = kinds.get(kind, 0) + n
    assert set(kinds) == {"new", "duplicate", "improved"}, kinds
    log = Log()
    result = gridpath.jps.jps(sealed_map()(), observer=log)
    gaps = [b - a for a, b in zip([0, *log.checks], [*log.checks, result.stats.expanded], strict=True)]
    assert log.checks[0] == FIRST_CHECK and all(0 < gap <= CHECK_EVERY for gap in gaps[:-1]), log.checks
    assert 0 <= gaps[-1] <= CHECK_EVERY  # the search ran out after the last check


def npuzzle_distances(width: int, height: int):
    """Every state's true distance to the goal, by breadth-first search from it."""
    from searchkit.solving import prepare

    goal = " ".join(map(str, list(range(1, width * height)) + [0]))
    problem = prepare("npuzzle", {"size": f"{width}x{height}", "board": goal}, "bfs").problem
    start = problem.initial_state()
    dist = {start: 0}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        for _a, t, _c in problem.successors(s):
            if t not in dist:
                dist[t] = dist[s] + 1
                queue.append(t)
    return problem, dist


@pytest.mark.parametrize("width, height", [(2, 3), (3, 2), (2, 4), (4, 2)])
def test_inversion_max_is_admissible_and_beats_manhattan(gridpath, width, height):
    problem, dist = npuzzle_distances(width, height)
    h = gridpath.inversions.make_inversion_max(problem)
    table = problem.manhattan_table()
    better = 0
    for state, d in dist.items():
        value = h(state)
        manhattan = sum(table[t][p] for p, t in enumerate(problem.decode(state)))
        assert manhattan <= value <= d, (problem.decode(state), value, d)
        better += value > manhattan
    assert len(dist) == math.factorial(width * height) // 2 and better > 0


def test_inversion_move_bound(installed):
    from searchkit_gridpath.inversions import moves_for

    assert [moves_for(n, 3) for n in range(9)] == [0, 1, 2, 1, 2, 3, 2, 3, 4]  # Takahashi's n//3 + n%3
    assert [moves_for(n, 2) for n in range(6)] == [0, 1, 1, 2, 2, 3]
    assert moves_for(5, 0) == 0


def test_inversion_max_through_the_cli_is_optimal(installed):
    for board, length in (("8 6 7 2 5 4 3 0 1", 31),):
        doc = json.loads(
            run(installed, "solve", "npuzzle", "--board", board, "-H", "inversion-max", "-e", "astar", "--json").stdout
        )
        assert doc["cost"] == length and doc["heuristic"] == "inversion-max"


def test_bench_suite_at_a_scen_in_another_folder(installed, tmp_path):
    """A suite points at any .scen; the map is found by the name its lines give."""
    maps = tmp_path / "maps" / "demo"
    maps.mkdir(parents=True)
    (maps / "m.map").write_text(MAP)
    rows = MAP.splitlines()[4:]
    lines = ["version 1"] + [
        f"0\tmaps/demo/m.map\t4\t3\t{s[0]}\t{s[1]}\t{g[0]}\t{g[1]}\t{shortest(rows, s, g):.8f}"
        for s, g in itertools.permutations([(0, 0), (3, 2), (0, 2)], 2)
    ]
    (tmp_path / "demo.scen").write_text("\n".join(lines) + "\n")
    (tmp_path / "s.toml").write_text(
        'domain = "gridpath"\n[instances]\nfile = "demo.scen"\n'
        '[[configs]]\nengine = "jps"\n[[configs]]\nengine = "astar"\n'
    )
    result = run(installed, "bench", str(tmp_path / "s.toml"), "--json", "-j", "1")
    doc = json.loads(result.stdout)
    assert result.returncode == 0 and doc["ok"] and len(doc["records"]) == 12
    assert all(r["cost_ok"] is True for r in doc["records"])


def test_the_tutorial_plugin_meets_the_contract(installed):
    """`searchkit check gridpath` passes on the plugin as a user installs it."""
    done = run(installed, "check", "gridpath", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    doc = json.loads(done.stdout)
    assert doc["failed"] == 0
    statuses = {c["name"]: c["status"] for c in doc["checks"]}
    assert statuses["heuristic octile: admissible"] == "pass" and statuses["engine jps"] == "pass"


def test_nbs_is_optimal_on_random_maps_with_heuristics_both_ways(gridpath):
    """The grid offers the same estimate to the start cell as its backward heuristic."""
    from searchkit_gridpath.problem import GridProblem, euclidean, octile

    from searchkit.engines import nbs

    checked = 0
    for trial, rows, start, goal, grid in random_maps(11, 120):
        for connectivity, estimate in ((8, octile), (8, euclidean), (4, octile)):
            expected = shortest(rows, start, goal, connectivity)
            problem = GridProblem(grid, start, goal, connectivity)
            problem.use_heuristic(estimate)
            assert problem.backward_heuristic(problem.start) == 0
            result = nbs(problem)
            if expected is None:
                assert result.status == "no-solution", trial
            else:
                assert result.cost == pytest.approx(expected, abs=1e-9), (trial, rows, start, goal)
                assert replay(problem, result) == pytest.approx(expected)
                checked += 1
    assert checked > 150
