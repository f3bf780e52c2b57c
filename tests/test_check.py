"""`searchkit check` and `searchkit.testing`: the project's own domains pass the contract,
deliberately broken toy domains are caught with a counterexample, and a broken plugin is
left out with one line while everything else keeps working."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from searchkit import Domain, Heuristic, InputError, Param
from searchkit.testing import FAIL, PASS, SKIP, checks, parametrize_with_checks, run_checks

CLI = [sys.executable, "-c", "from searchkit.cli import main; main()"]


# -- the project's own domains, one pytest test per check ----------------------------------------
@parametrize_with_checks("npuzzle")
def test_npuzzle_meets_the_contract(check):
    check()


@parametrize_with_checks("sokoban")
def test_sokoban_meets_the_contract(check):
    check()


# -- a toy domain with switchable defects ---------------------------------------------------------
class Line:
    """Walk along 0..n in steps of one; the goal is n.  ``defect`` breaks one promise."""

    def __init__(self, n: int, defect: str, heuristic: str | None):
        self.n, self.defect = n, defect
        self.heuristic_admissible = True
        if heuristic is None:
            self.heuristic = None
            self.successors_with_h = None
        if defect == "no-backward-heuristic":
            self.backward_heuristic = None

    def initial_state(self):
        return 0

    def is_goal(self, s):
        return s == self.n

    def successors(self, s):
        return [(d, s + d, 1) for d in (-1, 1) if 0 <= s + d <= self.n]

    def heuristic(self, s):
        return 2 * (self.n - s) if self.defect == "overestimates" else self.n - s

    def successors_with_h(self, s, h):
        for a, t, c in self.successors(s):  # a generator: any iterable must do
            yield a, t, c, (self.heuristic(t) + (1 if self.defect == "incremental" and t == 3 else 0))

    def backward_heuristic(self, s):
        return s + 1 if self.defect == "backward-overestimates" else s

    def predecessors_with_h(self, s, h):
        for a, p, c in self.predecessors(s):
            yield a, p, c, self.backward_heuristic(p) + (1 if self.defect == "backward-incremental" and p == 2 else 0)

    def goal_states(self):
        return [self.n]

    def predecessors(self, s):
        out = [(d, s - d, 1) for d in (-1, 1) if 0 <= s - d <= self.n]
        return out[:1] if self.defect == "predecessors" and s == 4 else out


class LineDomain(Domain):
    name = "line"
    summary = "a toy"
    params = [Param("n", int, 6, "length"), Param("defect", str, "none", "which promise to break")]

    def builtin_heuristics(self):
        return {"distance": Heuristic("distance", summary="steps left", consistent=True)}

    def make_problem(self, options, heuristic):
        if options["n"] < 1:
            raise InputError("--n must be at least 1")
        return Line(options["n"], options["defect"], heuristic.name if heuristic else None)


def outcomes(defect: str) -> dict[str, tuple[str, str]]:
    return {o.name: (o.status, o.detail) for o in run_checks(LineDomain(), [{"n": 6, "defect": defect}])}


def test_a_sound_toy_passes_every_check_but_the_ones_it_cannot_make():
    found = outcomes("none")
    assert all(status in (PASS, SKIP) for status, _ in found.values()), found
    assert found["heuristic distance: admissible"][0] == PASS
    assert found["engine astar"] == (PASS, "cost 6, optimal")
    assert found["engine sokoban-portfolio"][1].startswith("refused: engine 'sokoban-portfolio' works on sokoban")


def test_an_overestimating_heuristic_declared_admissible_is_caught():
    found = outcomes("overestimates")
    status, detail = found["heuristic distance: admissible"]
    assert status == FAIL and "h = 2 but the exact cost to go is 1 at 5" in detail
    assert found["heuristic distance: consistent"][0] == FAIL


def test_successors_with_h_that_disagrees_is_caught():
    status, detail = outcomes("incremental")["heuristic distance: successors_with_h agrees"]
    assert status == FAIL and "successors_with_h says h = 4, the heuristic says 3" in detail


def test_predecessors_that_do_not_invert_successors_are_caught():
    status, detail = outcomes("predecessors")["predecessors invert successors"]
    assert status == FAIL and "predecessors" in detail


def test_a_backward_heuristic_that_overestimates_or_disagrees_is_caught():
    status, detail = outcomes("backward-overestimates")["backward heuristic: admissible"]
    assert (
        status == FAIL
        and "without a heuristic: backward_heuristic = 1 but the exact cost from the start is 0" in detail
    )
    status, detail = outcomes("backward-incremental")["backward heuristic: predecessors_with_h agrees"]
    assert status == FAIL and "predecessors_with_h says h = 3, the heuristic says 2" in detail
    found = outcomes("none")
    assert (
        found["backward heuristic: admissible"][0] == found["backward heuristic: predecessors_with_h agrees"][0] == PASS
    )


def test_a_backward_heuristic_attached_with_the_heuristic_is_checked(gridpath):
    """gridpath's problems carry a backward heuristic only when built with a heuristic."""
    found = {o.name: (o.status, o.detail) for o in run_checks("gridpath")}
    status, detail = found["backward heuristic: admissible"]
    assert status == PASS and detail.endswith("(with heuristic octile, with heuristic euclidean)"), detail


def test_a_goal_is_counted_once_and_every_instance_is_accounted_for():
    """The sample's goal and goal_states() name the same state; equal engine answers on
    several instances are said once with the instances they hold for."""
    assert outcomes("none")["heuristic distance: 0 at goals"] == (PASS, "1 goal state")
    instances = [{"n": 6, "defect": "none"}, {"n": 4, "defect": "none"}, {"n": 6, "defect": "none"}]
    found = {o.name: o.detail for o in run_checks(LineDomain(), instances)}
    assert found["heuristic distance: 0 at goals"] == "3 goal states"
    assert found["engine astar"] == "cost 6, optimal (instances 1, 3); cost 4, optimal (instance 2)"
    assert (
        found["engine sokoban-fess"]
        == "refused: engine 'sokoban-fess' works on sokoban only, not on line (all 3 instances)"
    )
    found = {o.name: o.detail for o in run_checks(LineDomain(), instances[:2])}
    assert found["engine astar"] == "cost 6, optimal; cost 4, optimal"


def test_nbs_refuses_a_domain_without_a_backward_heuristic_in_one_line():
    from searchkit.solving import prepare

    with pytest.raises(InputError, match="^engine 'nbs' needs a backward heuristic .*which line does not offer$"):
        prepare(LineDomain(), {"defect": "no-backward-heuristic"}, "nbs")
    found = outcomes("no-backward-heuristic")
    assert found["engine nbs"][1].startswith("refused: engine 'nbs' needs a backward heuristic")
    assert found["engine nbs"][0] == PASS and outcomes("none")["engine nbs"] == (PASS, "cost 6, optimal")


def test_no_instances_is_an_input_error():
    class Bare(LineDomain):
        name = "bare"

    with pytest.raises(InputError, match="no small instances"):
        checks(Bare())


# -- the command ----------------------------------------------------------------------------------
def test_check_command_exit_codes_and_json():
    done = subprocess.run(
        CLI + ["check", "sokoban", "microban:2", "--json"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["failed"] == 0 and any(c["name"] == "engine astar" for c in doc["checks"])
    assert doc["instances"] == ["level_file=microban:2"]
    for args in (["check", "npuzzle", "--board", "1 2 3"], ["check", "nope"], ["check", "sokoban", "nowhere.txt"]):
        bad = subprocess.run(CLI + args, capture_output=True, text=True, timeout=60)
        assert bad.returncode == 2 and bad.stderr.startswith("Error: ") and bad.stderr.count("\n") == 1, bad.stderr


# -- a broken plugin is contained -----------------------------------------------------------------
def _fake_plugin(tmp_path, name: str, body: str) -> dict:
    """An installed-looking plugin: a module and a dist-info with its entry point."""
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(body))
    info = tmp_path / f"{name}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[searchkit]\n{name} = {name}\n")
    import os

    return dict(os.environ, PYTHONPATH=str(tmp_path))


@pytest.mark.parametrize(
    "name,body,why",
    [
        (
            "sk_bad_short",
            """
        from searchkit import Domain, Param, hookimpl

        @hookimpl
        def register_domains(register):
            class D(Domain):
                name = "bad"
                params = [Param("size", str, None, short="n")]
            register(D())
     """,
            "short must be a dash and one letter",
        ),
        ("sk_no_import", "import no_such_module_anywhere\n", "No module named 'no_such_module_anywhere'"),
        (
            "sk_clash",
            """
        from searchkit import Domain, Param, hookimpl

        @hookimpl
        def register_domains(register):
            class D(Domain):
                name = "clash"
                params = [Param("engine", str, None)]
                def make_problem(self, options, heuristic):
                    raise NotImplementedError
            register(D())
     """,
            "clashes with a searchkit option",
        ),
    ],
)
def test_a_broken_plugin_is_reported_in_one_line_and_the_rest_works(tmp_path, name, body, why):
    env = _fake_plugin(tmp_path, name, body)
    for args in (["domains"], ["solve", "npuzzle", "--board", "1 2 3 4 0 6 7 5 8"]):
        done = subprocess.run(CLI + args, capture_output=True, text=True, timeout=60, env=env)
        assert done.returncode == 0, done.stderr
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("Warning: plugin ") and why in lines[0], done.stderr
        assert "npuzzle" in done.stdout or "solved" in done.stdout


# -- library use matches the command line ------------------------------------------------------------
@pytest.mark.parametrize(
    "domain,options,flags,engine,heuristic",
    [
        ("npuzzle", {"board": "8 6 7 2 5 4 3 0 1"}, ["--board", "8 6 7 2 5 4 3 0 1"], "astar", "manhattan"),
        ("npuzzle", {"board": "8 6 7 2 5 4 3 0 1"}, ["--board", "8 6 7 2 5 4 3 0 1"], "greedy", "linear-conflict"),
        # the library's solve is the engine alone; the command line's optimizer pass is off
        ("sokoban", {"level_file": "microban:69"}, ["microban:69", "--no-improve"], "astar", "matching"),
        (
            "sokoban",
            {"level_file": "microban:69", "optimal": True},
            ["microban:69", "--optimal", "--no-improve"],
            "astar",
            "matching",
        ),
    ],
)
def test_make_problem_and_solve_label_as_the_command_line_does(domain, options, flags, engine, heuristic):
    from searchkit import make_problem, solve

    result = solve(make_problem(domain, heuristic=heuristic, **options), engine)
    done = subprocess.run(
        CLI + ["solve", domain, *flags, "--engine", engine, "--heuristic", heuristic, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    doc = json.loads(done.stdout)
    assert (result.status, result.cost, result.guarantee) == (doc["status"], doc["cost"], doc["guarantee"])


def test_make_problem_refuses_unknown_options_and_heuristics():
    from searchkit import make_problem

    with pytest.raises(InputError, match="no option sizes"):
        make_problem("npuzzle", sizes=3)
    with pytest.raises(InputError, match="unknown heuristic 'nope'"):
        make_problem("npuzzle", heuristic="nope")
