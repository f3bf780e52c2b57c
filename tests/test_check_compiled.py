"""``searchkit check`` holds a domain's compiled rules to its Python problem (`searchkit.testing`,
the check `COMPILED_CHECK`): the test domains of `compiled_domains` pass it, and rules with one
fault each (`compiled_puzzle_broken_rules`) fail it, naming the first sampled state where the
fault shows and what disagreed.
"""

from __future__ import annotations

import random
import re

import pytest
from compiled_domains import Grid, Puzzle, manhattan_table, random_grid
from registry import plugin_registered
from typer.testing import CliRunner

from searchkit import Domain, Heuristic, InputError, Param, hookimpl
from searchkit.cli import build_app
from searchkit.compiled import NO_NUMBA_ENV
from searchkit.testing import COMPILED_CHECK, FAIL, PASS, SKIP, Space, checks, parametrize_with_checks

pytest.importorskip("numba")

START = "1 2 3 4 5 6 0 7 8"  # the blank on cell 6: moves U and R


class _PuzzleDomain(Domain):
    """The 8-puzzle over the compiled rules module ``rules``."""

    params = [Param("board", str, START)]

    def __init__(self, name: str, rules: str):
        self.name, self.rules = name, rules
        super().__init__()

    def builtin_heuristics(self):
        return {"manhattan": Heuristic("manhattan", admissible=True, consistent=True)}

    def make_problem(self, options, heuristic):
        try:
            return Puzzle([int(t) for t in options["board"].split()], 3, 3, rules=self.rules)
        except ValueError as e:
            raise InputError(f"not a board: {options['board']!r} ({e})".replace("\n", " ")) from None

    def check_instances(self):
        return [{"board": START}]


class _GridDomain(Domain):
    """A cost grid whose heuristic table has dead cells (negative: the Python heuristic's infinity)."""

    name = "kcheck-grid"

    def __init__(self, kind: type[Grid] = Grid):
        self.kind = kind
        super().__init__()

    def make_problem(self, options, heuristic):
        costs, start, goal = random_grid(9, 7, random.Random(3))
        hv = manhattan_table(9, 7, costs, goal)
        hv = [-1 if cell % 5 == 2 and cell != goal else v for cell, v in enumerate(hv)]
        return self.kind(9, 7, costs, start, goal, hv, admissible=False)

    def check_instances(self):
        return [{}]


class _NoRules(Grid):
    compiled_rules = None  # offers none


class _DeadOnlyWhenCompiled(Grid):
    """Its Python heuristic finds no state dead; its compiled ``h`` (the table) does."""

    def heuristic(self, state: int) -> float:
        return max(self.hv[state], 0)


def _blank(state: int) -> int:
    return next(p for p in range(9) if (state >> (4 * p)) & 15 == 0)


# per fault: the rules module, where the fault shows (the blank's cell) and what the check says there
FAULTS = {
    "apply": ("compiled_puzzle_broken_apply", lambda b: b < 6 and b % 3 != 2, "move 3 ('R') leads to"),
    "h": ("compiled_puzzle_broken_h", lambda b: b == 0, "h = "),
    "undo": ("compiled_puzzle_broken_undo", lambda b: b >= 3, "undo of move 0 does not restore the state"),
    "moves": ("compiled_puzzle_broken_moves", lambda b: b == 4, "successors give 'R' to"),
}


def _first_where(rules: str, shows) -> int:
    """The first state of the check's sample (the plain problem's) where the fault shows."""
    problem = _PuzzleDomain("k", rules).make_problem({"board": START}, None)
    return next(s for s in Space(problem).sample() if shows(_blank(s)))


def _outcome(domain: Domain):
    found = [c for c in checks(domain) if c.name == COMPILED_CHECK]
    assert len(found) == 1
    return found[0].outcome()


@pytest.mark.parametrize("rules", ["compiled_puzzle_rules", "compiled_puzzle_plain_rules"])
def test_the_puzzle_rules_pass(rules):
    outcome = _outcome(_PuzzleDomain("kcheck", rules))
    assert outcome.status == PASS, outcome.detail
    assert "(2 problems)" in outcome.detail  # without a heuristic and with manhattan


def test_the_grid_rules_pass_with_dead_states():
    outcome = _outcome(_GridDomain())
    assert outcome.status == PASS, outcome.detail


def test_a_state_dead_only_to_the_compiled_h_fails():
    outcome = _outcome(_GridDomain(_DeadOnlyWhenCompiled))
    assert outcome.status == FAIL
    assert "h = -1, the heuristic says 0" in outcome.detail


@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_fault_fails_naming_the_first_state_where_it_shows(fault):
    rules, shows, said = FAULTS[fault]
    outcome = _outcome(_PuzzleDomain("kcheck", rules))
    assert outcome.status == FAIL
    state = _first_where(rules, shows)
    assert said in outcome.detail and outcome.detail.endswith(f" at {state}"), outcome.detail
    assert f"compiled rules {rules}: " in outcome.detail


def test_without_compiled_rules_or_numba_it_does_not_apply(monkeypatch):
    outcome = _outcome(_GridDomain(_NoRules))
    assert outcome.status == SKIP and "no compiled rules" in outcome.detail
    monkeypatch.setenv(NO_NUMBA_ENV, "1")
    outcome = _outcome(_GridDomain())
    assert outcome.status == SKIP and "numba is not available" in outcome.detail


# -- through the command line and pytest ------------------------------------------------------------


class _Plugin:
    @hookimpl
    def register_domains(self, register):
        register(_PuzzleDomain("kcheck", "compiled_puzzle_rules"))
        register(_PuzzleDomain("kcheck-undo", "compiled_puzzle_broken_undo"))


@pytest.fixture
def kcheck():
    with plugin_registered(_Plugin(), "test-kcheck"):
        yield


@pytest.mark.usefixtures("kcheck")
def test_searchkit_check_and_parametrize_with_checks_run_it():
    done = CliRunner().invoke(build_app(), ["check", "kcheck"])
    assert done.exit_code == 0, done.output
    assert f"PASS  {COMPILED_CHECK}: 800 states (2 problems)" in done.stdout.splitlines(), done.output
    mark = parametrize_with_checks("kcheck")
    assert COMPILED_CHECK in mark.kwargs["ids"]


@pytest.mark.usefixtures("kcheck")
def test_searchkit_check_fails_naming_the_check_and_the_state():
    done = CliRunner().invoke(build_app(), ["check", "kcheck-undo"])
    # one check fails; how many pass depends on the engines installed (each is a check)
    assert done.exit_code == 1 and re.search(r"^kcheck-undo: \d+ passed, 1 failed", done.stdout, re.M), done.output
    rules, shows, said = FAULTS["undo"]
    line = next(line for line in done.stdout.splitlines() if line.startswith(f"FAIL  {COMPILED_CHECK}: "))
    assert said in line and line.endswith(f" at {_first_where(rules, shows)}"), line
