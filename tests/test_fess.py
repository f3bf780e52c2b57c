"""The core FESS engine (`searchkit.engines.fess`) on a toy domain of counters."""

from __future__ import annotations

import pytest

from searchkit import FessSearch, Limits, feature_advice, fess, replay, solve
from searchkit.engines.breadth import bfs
from searchkit.engines.fess import Cells


class Counters:
    """Counters from ``start`` down to all zero, one counter up or down by one a move
    (between 0 and ``top``); ``blocked`` states are never entered.  Features: the counters
    not yet zero, then the largest; heuristic: the sum."""

    def __init__(self, start: tuple[int, ...], top: int = 4, blocked: frozenset = frozenset()):
        self.start, self.top, self.blocked = start, top, blocked
        self.advised: list[int] = []  # the advisors' calls' numbers of children, when it has advisors

    def initial_state(self):
        return self.start

    def is_goal(self, state):
        return not any(state)

    def successors(self, state):
        for i, v in enumerate(state):
            for d in (-1, 1):
                if 0 <= v + d <= self.top:
                    child = (*state[:i], v + d, *state[i + 1 :])
                    if child not in self.blocked:
                        yield (i, d), child, 1

    def heuristic(self, state):
        return sum(state)

    def features(self, state):
        return (sum(1 for v in state if v), max(state))


def test_fess_solves_and_its_answer_replays():
    problem = Counters((3, 0, 4, 2))
    result = solve(problem, engine="fess")
    assert result.solved and result.engine == "fess"
    assert replay(problem, result) == result.cost == len(result.actions)
    assert result.cost >= 9  # no shorter than the optimum (the sum of the counters)


def test_a_limit_stops_it_with_its_statistics_and_it_steps_on():
    problem = Counters((4, 4, 4, 4, 4))
    search = FessSearch(problem, limits=Limits(max_expanded=5))
    assert search.step() and search.status == "limit"
    result = search.result()
    assert result.status == "limit" and result.stats.limit_reason
    assert result.stats.expanded == 5 and result.stats.stored == len(search.parents) > 5
    assert result.stats.generated >= result.stats.stored - 1
    stepped = FessSearch(problem)
    assert not stepped.step(3) and stepped.expanded == 3  # a budget pauses it
    assert stepped.step() and stepped.result().solved


def test_without_a_way_it_searches_everything_reachable():
    """A goal walled off: no-solution after expanding every state breadth-first search reaches."""
    blocked = frozenset({(1, 0), (0, 1)})
    problem = Counters((2, 2), top=2, blocked=blocked)
    result = fess(problem)
    assert result.status == "no-solution"

    class Endless(Counters):
        def is_goal(self, state):
            return False

    everything = bfs(Endless((2, 2), top=2, blocked=blocked)).stats.stored
    assert result.stats.expanded == result.stats.stored == everything


def test_a_problem_without_features_is_one_cell_ordered_by_weight_and_heuristic():
    class Plain(Counters):
        features = None  # type: ignore[assignment]

    problem = Plain((2, 1, 3))
    search = FessSearch(problem)
    search.step(4)
    assert list(search.opened.cells) == [()]
    assert solve(Plain((2, 1, 3)), engine="fess").solved


def test_progress_notes_count_the_first_feature_down_from_the_start():
    notes = []

    class Notes:
        def note(self, text):
            notes.append(text)

        def __getattr__(self, name):
            return lambda *args, **kwargs: None

    fess(Counters((3, 0, 4, 2)), observer=Notes())  # type: ignore[arg-type]
    assert notes == ["best 1/3", "best 2/3"]  # the goal (3/3) ends the search as it is generated


def test_the_best_cell_has_every_other_turn_until_it_stops_improving():
    """The cell of the best label expanded gets every other turn besides its turns in the
    cycle, until ``patience`` pops pass without a better label."""
    worse, better = (5, 1, 10), (4, 1, 9)
    opened = Cells(2, patience=6)
    for i in range(10):
        opened.add(worse, 0, worse, (i, 0))
        opened.add(better, 0, better, (100 + i, 0))
    opened.expanded(better)
    turns = "".join("B" if opened.pop()[0][0] >= 100 else "W" for _ in range(12))
    assert turns == "BBBWBB" + "WBWBWB"  # then the cycle alone: W and B in turn


def test_in_a_cell_the_least_weight_then_the_best_score_then_the_newest_goes_first():
    opened = Cells(1)
    for state, weight, score in [("a", 1, (0, 1)), ("b", 0, (0, 5)), ("c", 0, (0, 2)), ("d", 0, (0, 2))]:
        opened.add((0, 0), weight, score, state)
    assert [opened.pop()[0] for _ in range(4)] == ["d", "c", "b", "a"]
    assert opened.pop() is None and opened.size == 0


@pytest.mark.parametrize("own_cells", [False, True])
def test_a_child_waits_in_the_cell_of_the_best_score_on_its_way_or_its_own(own_cells):
    problem = Counters((4, 3, 4, 2, 3))
    search = FessSearch(problem, own_cells=own_cells)
    search.step(30)
    waiting = [(cell, entry) for cell, queue in search.opened.cells.items() for entry in queue]
    assert len(waiting) > 30
    inherited = 0
    for cell, ((_weight, score), state, label) in waiting:
        assert cell == label[:2] and score == search.score(state)
        inherited += label != score
        if not own_cells:  # the label is no worse than the score of any state on the way
            assert all(label <= search.score(s) for s in search.chain(state)[:-1])
    assert (inherited == 0) == own_cells


def test_one_advisor_per_feature_proposes_the_best_scored_child_improving_it():
    parent = (3, 5, 9)
    scores = [(3, 4, 1), (2, 6, 8), (2, 6, 7), (3, 3, 9), (4, 0, 0)]
    # feature 0: 2 (its score beats 1's); feature 1: 3 (best scored of 0, 3 and 4, not the most improved)
    assert feature_advice(parent, scores, 2) == {2, 3}
    assert feature_advice(parent, scores, 2, among=[0, 1, 2, 4]) == {2, 0}  # 3 left out: feature 1 goes to 0
    assert feature_advice(parent, scores, 1, among=[0, 3]) == set()


def test_advised_children_go_first_and_a_problems_advisors_are_heard():
    """An advised child waits at its parent's weight, the others at one more; a problem's
    ``advisors`` add to the core's."""

    class Advised(Counters):
        def advisors(self, state, children, scores):
            self.advised.append(len(children))
            return [len(children) - 1]

    problem = Advised((2, 3, 1))
    search = FessSearch(problem)
    search.step(1)
    weights = {state: weight for _cell, queue in search.opened.cells.items() for (weight, _s), state, _l in queue}
    children = [child for _a, child, _c in problem.successors((2, 3, 1))]
    advised = {i for i, child in enumerate(children) if weights[child] == 0}
    scores = [search.score(child) for child in children]
    assert advised == feature_advice(search.score((2, 3, 1)), scores, 2) | {len(children) - 1}
    assert problem.advised == [len(children)]
    assert fess(Advised((2, 3, 1))).solved
