"""Full garbage collections wait while a search runs, and the thresholds come back after."""

from __future__ import annotations

import gc
import threading

import pytest
from problems import Counter

from searchkit import Limits, solve
from searchkit.collector import NEVER, searching
from searchkit.solving import execute, prepare


def collections_by_generation(work) -> list[int]:
    """How many collections of each generation ran during ``work()``."""
    seen = [0, 0, 0]

    def note(phase: str, info: dict) -> None:
        if phase == "start":
            seen[info["generation"]] += 1

    gc.callbacks.append(note)
    try:
        work()
    finally:
        gc.callbacks.remove(note)
    return seen


def make_garbage_and_keep_some() -> None:
    kept = []
    for i in range(300_000):
        kept.append([i])  # tracked containers that survive into the old generation
        a: list = []
        a.append(a)  # a young cycle, for the young collections to free


def test_inside_only_young_collections_run_and_the_thresholds_come_back() -> None:
    before = gc.get_threshold()
    assert collections_by_generation(make_garbage_and_keep_some)[2] > 0  # the control: full ones run here

    def inside() -> None:
        with searching():
            assert gc.get_threshold() == (*before[:2], NEVER)
            make_garbage_and_keep_some()

    seen = collections_by_generation(inside)
    assert seen[0] > 0 and seen[2] == 0
    assert gc.get_threshold() == before


def test_the_thresholds_come_back_after_an_error() -> None:
    before = gc.get_threshold()
    with pytest.raises(KeyError), searching():
        raise KeyError("x")
    assert gc.get_threshold() == before


class Recording(Counter):
    """The counter space, noting the full-collection threshold while it is searched."""

    def __init__(self) -> None:
        self.thresholds: set[int] = set()

    def heuristic(self, state: int) -> float:
        self.thresholds.add(gc.get_threshold()[2])
        return super().heuristic(state)


def test_solve_and_execute_search_with_full_collections_held_off() -> None:
    problem = Recording()
    solve(problem, "greedy", limits=Limits(max_expanded=50))
    assert problem.thresholds == {NEVER}
    job = prepare("npuzzle", {"size": 3, "seed": 1}, engine="astar")
    recorded: set[int] = set()
    inner = job.problem.heuristic

    def heuristic(state):
        recorded.add(gc.get_threshold()[2])
        return inner(state)

    job.problem.heuristic = heuristic
    assert execute(job, Limits(max_expanded=50)) is not None
    assert recorded == {NEVER}


def test_overlapping_searches_in_two_threads_give_the_threshold_back_once_both_end() -> None:
    before = gc.get_threshold()
    first_in, first_may_leave = threading.Event(), threading.Event()

    def first() -> None:
        with searching():
            first_in.set()
            first_may_leave.wait(5)

    thread = threading.Thread(target=first)
    thread.start()
    first_in.wait(5)
    with searching():
        first_may_leave.set()
        thread.join(5)  # the first search ended inside the second: still held off
        assert gc.get_threshold()[2] == NEVER
    assert gc.get_threshold() == before
