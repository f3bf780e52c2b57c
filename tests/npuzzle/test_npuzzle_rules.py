"""The n-puzzle's compiled rules (`searchkit_npuzzle.rules`, `rules_pdb`): they agree with the
Python problem state by state, and the core's compiled engines over them give the Python
engines' answers; pattern databases in base-n and in rank-indexed form, boards of one and of
several words."""

from __future__ import annotations

import random

import pytest
from markers import needs_numba
from searchkit_npuzzle import pdb
from searchkit_npuzzle.pdb import database as pdb_database
from searchkit_npuzzle.rules import COMPACT, KIND, MANHATTAN, PDB

from searchkit import astar, compiled_idastar, idastar, make_problem, replay
from searchkit.kernels.rules import rules_source
from searchkit.testing import Space, _compiled_agree

pytestmark = [needs_numba, pytest.mark.usefixtures("private_pdb_cache")]


def _fresh_tables() -> None:
    for db in pdb._LOADED.values():
        db._sparse, db._flat = None, {}


@pytest.fixture(params=["base-n", "ranked"])
def table_form(request, monkeypatch):
    """The pattern databases in base-n form, or forced into the rank-indexed form."""
    _fresh_tables()
    if request.param == "ranked":
        monkeypatch.setattr(pdb_database, "SPARSE_LIMIT", 1)
    yield request.param
    _fresh_tables()


def _board(size: str, seed: int) -> dict[str, str]:
    return {"size": size, "seed": str(seed)}


@pytest.mark.parametrize(
    ("size", "heuristic"), [("3", "manhattan"), ("2x3", "manhattan"), ("5", "manhattan"), ("6", "manhattan")]
)
def test_manhattan_rules_agree_with_the_problem(size, heuristic):
    problem = make_problem("npuzzle", heuristic, **_board(size, 4))
    rules = problem.compiled_rules()
    assert rules.context[0][KIND] == MANHATTAN
    assert _compiled_agree(f"{size} {heuristic}", problem, rules, Space(problem, 1500).sample()) > 100


def test_pattern_database_rules_agree_with_the_problem(table_form):
    problem = make_problem("npuzzle", "pdb-8", size="3", seed="9")
    rules = problem.compiled_rules()
    assert rules.context[0][KIND] == (PDB if table_form == "base-n" else COMPACT)
    assert rules.module.endswith("rules_pdb" if table_form == "base-n" else "rules_ranked")
    assert rules.key_width < rules.width
    assert _compiled_agree(f"pdb-8 {table_form}", problem, rules, Space(problem, 3000).sample()) > 100


def test_linear_conflict_offers_no_compiled_rules():
    assert make_problem("npuzzle", "linear-conflict", size="3", seed="1").compiled_rules() is None


def test_compiled_engines_answer_as_the_python_ones_with_manhattan():
    _answers_as_python("manhattan")


def test_compiled_engines_answer_as_the_python_ones_with_a_pattern_database(table_form):
    _answers_as_python("pdb-8")


def _answers_as_python(heuristic: str) -> None:
    rng = random.Random(5)
    for _ in range(4):
        problem = make_problem("npuzzle", heuristic, size="3", seed=str(rng.randrange(10**6)))
        python = astar(problem, compiled="off")
        for engine in (astar, idastar):
            got = engine(problem, compiled="on")
            assert got.compiled and got.cost == python.cost
            replay(problem, got)
        same = astar(problem, compiled="on")
        assert (same.stats.expanded, same.stats.generated) == (python.stats.expanded, python.stats.generated)


def test_a_cap_keeps_only_cheaper_answers_and_says_what_it_proved():
    problem = make_problem("npuzzle", "manhattan", size="3", seed="11")
    rules = problem.compiled_rules()
    best = compiled_idastar(problem, rules)
    assert best.solved
    below = compiled_idastar(problem, rules, cap=int(best.cost))
    assert below.status == "no-solution" and below.bound == best.cost
    at = compiled_idastar(problem, rules, cap=int(best.cost) + 1)
    assert at.solved and at.cost == best.cost and at.bound == best.cost
    weighted = compiled_idastar(problem, rules, weights=(2, 3), cap=int(best.cost) + 5)
    assert weighted.solved and weighted.bound <= best.cost <= weighted.cost


def test_the_generated_kernels_follow_the_helpers_the_rules_import():
    """The rank-indexed rules import the packing from `rules` and the bookkeeping from
    `rules_pdb`: their sources name the rank-indexed rules' kernels too."""
    import inspect

    from searchkit_npuzzle import rules, rules_pdb

    source = rules_source("searchkit_npuzzle.rules_ranked")
    assert inspect.getsource(rules) in source and inspect.getsource(rules_pdb) in source


def test_a_board_wider_than_one_word_packs_its_cells_across_words():
    """5x5 and 6x6 boards: 12 and 10 cells a word, the context's third array marks the packing."""
    for size, words in (("5", 3), ("6", 4)):
        rules = make_problem("npuzzle", "manhattan", size=size, seed="2").compiled_rules()
        assert rules.key_width == words and len(rules.context) == 3
    assert len(make_problem("npuzzle", "manhattan", size="4", seed="2").compiled_rules().context) == 2
