"""Sokoban's compiled push rules (`push_rules`, `compiled_rules`) against the Python problem.

Where the Python problem prunes as the rules do (`compiled_rules.matches`: freeze and corral
pruning off, the matching bound, no macros) the core's check holds them to its successors,
costs, actions, heuristic and goal test, and the core's ``astar`` runs compiled with the
Python engine's answer and expansions.  With the pruning the compiled push search uses
(freeze and PI-corrals on), the rules prune less than the Python problem, never more: every
Python child is a compiled child, and each child only the rules give is one the Python
detectors prove dead (the oracle: `Pruning.dead_end`).
"""

from __future__ import annotations

import numpy as np
import pytest
from markers import needs_numba

from searchkit import Limits, make_problem
from searchkit.solving import execute, prepare
from searchkit.testing import COMPILED_CHECK, PASS, Space, checks

pytestmark = needs_numba

MATCHING_OFF = "freeze,corral"  # the detectors off for which the Python problem prunes as the rules


@pytest.mark.parametrize("off", [MATCHING_OFF, f"{MATCHING_OFF},dead-squares", "all"])
def test_the_core_check_holds_the_rules_to_the_python_problem(off):
    instances = [{"level_file": f"microban:{n}", "no_deadlock": off, "optimal": True} for n in (1, 2, 4, 10, 33)]
    (check,) = [c for c in checks("sokoban", instances) if c.name == COMPILED_CHECK]
    outcome = check.outcome()
    assert outcome.status == PASS, outcome.detail
    assert "5 problems" in outcome.detail


def test_rules_are_offered_only_where_they_match():
    assert make_problem("sokoban", "matching", level_file="microban:2", optimal=True).compiled_rules() is None
    assert (
        make_problem("sokoban", "nearest-goal", level_file="microban:2", no_deadlock=MATCHING_OFF).compiled_rules()
        is None
    )
    moves = make_problem("sokoban", "matching", level_file="microban:2", no_deadlock=MATCHING_OFF, optimize="moves")
    assert moves.compiled_rules() is None
    offered = make_problem("sokoban", "matching", level_file="microban:2", no_deadlock=MATCHING_OFF, optimal=True)
    assert offered.compiled_rules() is not None


@pytest.mark.parametrize("engine", ["astar", "greedy"])
@pytest.mark.parametrize("number", [3, 10, 20])
def test_the_core_engines_run_compiled_as_in_python(engine, number):
    options = {"level_file": f"microban:{number}", "no_deadlock": MATCHING_OFF, "optimal": True, "no_improve": True}
    runs = [
        execute(
            prepare("sokoban", options, engine=engine, heuristic="matching", params={"compiled": c}),
            Limits(timeout_s=60),
        )
        for c in ("on", "off")
    ]
    compiled, python = runs
    assert compiled.compiled and not python.compiled
    assert compiled.solved and python.solved and compiled.cost == python.cost
    assert compiled.stats.expanded == python.stats.expanded


@pytest.mark.parametrize("number", [1, 5, 9, 17, 28, 39])
def test_with_the_kernels_pruning_the_rules_prune_less_and_only_the_dead(number):
    from searchkit_sokoban.compiled_rules import push_rules_of

    problem = make_problem("sokoban", "matching", level_file=f"microban:{number}", optimal=True)
    assert problem.compiled_rules() is None  # the Python problem prunes more: not offered
    rules = push_rules_of(problem)
    fns, ctx = rules.functions(), rules.context
    out = np.zeros(rules.max_moves, np.int64)
    for s in Space(problem, 3000).sample(60):
        words = rules.encode(s)
        children = {}
        for m in out[: fns["moves"](words, ctx, out)]:
            child = words.copy()
            fns["apply"](child, int(m), ctx)
            children[rules.decode(child)] = rules.action(int(m), words)
        python = {t: a for a, t, _c in problem.successors(s)}
        assert all(children.get(t) == a for t, a in python.items()), s
        for t in set(children) - set(python):
            assert problem.pruning.dead_end(*t) is not None or not python, (s, t)
