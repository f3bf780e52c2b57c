"""FESS, feature space search (Shoham & Schaeffer, "The FESS Algorithm: A Feature Based
Approach to Single-Agent Search", IEEE CoG 2020), for any problem that has features.

A heuristic search ranks states by one number and drowns among the many that look alike.
FESS projects every state onto a small feature space and takes turns over its *cells*,
expanding in each the waiting state of least *weight*: a move's weight is 0 when an advisor
proposes it, 1 otherwise, a state's the sum along its path, so advised lines run deep while
every region of the feature space still gets its turn (`Cells`).  The loop (`FeatureSearch`)
is the same for every domain; what a domain gives it:

* a *score* per state: a tuple compared lower-is-better whose first ``features`` fields are
  the state's features (small ints, 0 everywhere at best), the rest tie-breakers in a cell;
* *advisors*: the children proposed at weight 0.  The core's rule, one advisor per feature
  (`feature_advice`): per feature, among the children that improve it, the best scored;
* *macro moves*: nothing special, the problem's successors may be as long as it likes.

`FessSearch` runs it on a problem offering ``features(state) -> tuple[int, ...]`` (its score:
the features, then the heuristic when there is one; no ``features``: one cell, a best-first
search on weight and heuristic) and optionally ``advisors(state, children, scores) ->
indexes``, proposed besides the core's.  A domain with its own state store or moves
subclasses `FeatureSearch` and writes `FeatureSearch.expand`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..limits import Limits
from ..observer import Observer
from ..problem import heuristic_of
from ..result import LIMIT, NO_SOLUTION, SOLVED, Result
from .bucketqueue import BucketQueue
from .paths import path_from_parents
from .run import Run

PATIENCE = 2000  # expansions without a better label before the best cell loses its extra turns
FEW = 2  # children at most for the first to count as advised (no real choice)

Expansion = tuple[list[Any], list[Any], set[int]]  # children, their scores, the advised ones' indexes


class Cells:
    """The waiting states, in cells, and the turns over the cells.

    A state waits with a *label* (a score; its cell is the label's first ``features``
    fields): the best score met on the way to its parent, or with ``own_cells`` its own
    (`FeatureSearch`).  In a cell the least weight goes first, then the best score, then
    the newest (a `BucketQueue` of ``(weight, score)`` keys, newest first, a state and its
    label two slots of its bucket).  Turns alternate: the cell of the best label expanded so
    far, then the next cell of the cycle; a cell met for the first time is the cycle's next.
    Once ``patience`` pops pass without a better label, the best cell is a line gone wrong
    and only the cycle's turns are left, until a better label comes (the paper's program,
    Festival, gives the best cell such extra turns).  Costs: O(1) per add and pop but a heap
    step per new key of a cell."""

    def __init__(self, features: int, patience: int = PATIENCE) -> None:
        self.features = features
        self.patience = patience
        self.cells: dict[Any, BucketQueue] = {}
        self.cycle: list[Any] = []
        self.turn = 0
        self.size = 0
        self.best: Any = None  # the best label of an expanded state
        self.pops = 0
        self.best_at = 0  # pops when it was reached

    def cell_of(self, label: Any) -> Any:
        """The cell of a label: its features."""
        return label[: self.features]

    def add(self, label: Any, weight: int, score: Any, state: Any) -> None:
        """``state`` (scored ``score``) waits at ``weight`` in the cell of ``label``."""
        cell = self.cell_of(label)
        queue = self.cells.get(cell)
        if queue is None:
            queue = self.cells[cell] = BucketQueue(lifo=True, slots=2)
            self.turn = len(self.cycle)
            self.cycle.append(cell)
        queue.push((weight, score), state, label)
        self.size += 1

    def expanded(self, label: Any) -> None:
        """A state of ``label`` is expanded: the best label reached moves on when better."""
        if self.best is None or label < self.best:
            self.best = label
            self.best_at = self.pops

    def pop(self) -> tuple[Any, int, Any, Any] | None:
        """``(state, weight, score, label)`` of the first waiting state of the cell whose turn
        it is; None when none waits."""
        self.pops += 1
        if self.pops & 1 and self.best is not None and self.pops - self.best_at < self.patience:
            queue = self.cells.get(self.cell_of(self.best))
            if queue:
                return self._take(queue)
        cycle = self.cycle
        while cycle:
            if self.turn >= len(cycle):
                self.turn = 0
            cell = cycle[self.turn]
            queue = self.cells[cell]
            if not queue:
                cycle.pop(self.turn)  # empty now; the cell comes back when a state lands in it
                del self.cells[cell]
                continue
            self.turn += 1
            return self._take(queue)
        return None

    def _take(self, queue: BucketQueue) -> tuple[Any, int, Any, Any]:
        (weight, score), state, label = queue.pop()
        self.size -= 1
        return state, weight, score, label


def feature_advice(parent: Any, scores: Sequence[Any], features: int, among: Sequence[int] | None = None) -> set[int]:
    """The core's advisors, one per feature: for each of the first ``features`` fields, the
    child of least score among those (of ``among``, indexes; all when None) whose field is
    below ``parent``'s (the first such on ties).  O(children x features)."""
    best: dict[int, int] = {}
    for i in range(len(scores)) if among is None else among:
        score = scores[i]
        for k in range(features):
            if score[k] < parent[k] and (k not in best or score < scores[best[k]]):
                best[k] = i
    return set(best.values())


class FeatureSearch:
    """The FESS loop: take the waiting state whose turn it is (`Cells`), expand it
    (`expand`, the domain's), give the advised children weight 0 and the rest 1 (with at
    most `FEW` children the first is advised: there is no real choice), and queue them under
    the label: the best score met on the way (``own_cells``: each its own score).  The caller
    advances it (`step`, alone or in a portfolio) and reads `result`.

    A subclass sets ``parents`` (state -> parent, None at a root), queues its roots with
    ``opened.add(score, 0, score, root)``, writes `expand` (setting ``status`` and ``goal``
    when a child is a goal) and `path_to`.  ``check_mask``: the limits are also checked at
    every expansion count with none of these bits set (for expensive expansions).
    ``total``: progress notes say ``total - score[0]``, the best reached, of ``total``."""

    backward = False  # a portfolio joins a forward member's path to a backward one's
    progress = "best"  # what progress notes count, of `total`

    def __init__(
        self,
        name: str,
        limits: Limits | None,
        observer: Observer | None,
        *,
        features: int,
        own_cells: bool = False,
        patience: int = PATIENCE,
        check_mask: int | None = None,
    ):
        self.run = Run(name, limits, observer)
        self.run.watch(self)  # its dictionaries (`growth_ahead`), under a memory limit
        self.status: str | None = None
        self.goal: Any = None
        self.expanded = self.generated = self.duplicates = self.reopened = self.max_frontier = 0
        self.parents: dict[Any, Any] = {}
        self.opened = Cells(features, patience)
        self.own_cells = own_cells
        self.check_mask = check_mask
        self.total = 0
        self.best_done = 0  # the most of `total` a state has reached, for progress notes
        self.fresh: list[Any] | None = None  # the states stored, for a portfolio's meeting (`knows`)

    def expand(self, state: Any, score: Any) -> Expansion | None:
        """The new children of ``state`` (scored ``score``), their scores and the indexes
        of the advised ones; None when a child ends the search (``status``, ``goal`` set)."""
        raise NotImplementedError

    def path_to(self, state: Any) -> tuple[list[Any], list[Any], Any]:
        """``(actions, states, cost)`` from a root to ``state`` (reached)."""
        raise NotImplementedError

    @property
    def done(self) -> bool:
        return self.status is not None

    @property
    def stored(self) -> int:
        return len(self.parents)

    @property
    def frontier(self) -> int:
        return self.opened.size

    def step(self, budget: int | None = None) -> bool:
        """Expand up to ``budget`` more states (all it takes when None); True once over."""
        if self.status is not None:
            return True
        run, parents, opened, total = self.run, self.parents, self.opened, self.total
        mask = -1 if self.check_mask is None else self.check_mask
        stop_at = None if budget is None else self.expanded + budget
        while stop_at is None or self.expanded < stop_at:
            picked = opened.pop()
            if picked is None:
                self.status = NO_SOLUTION
                return True
            state, weight, own, label = picked
            if (self.expanded >= run.next_check or not self.expanded & mask) and run.limit_reached(
                self.expanded, self.generated, len(parents)
            ):
                opened.add(label, weight, own, state)  # back, for a later step
                self.status = LIMIT
                return True
            self.expanded += 1
            if opened.size >= self.max_frontier:
                self.max_frontier = opened.size + 1
            if own < label:
                label = own  # the best score on the way here: the label of its children
            opened.expanded(label)
            found = self.expand(state, own)
            if found is None:
                return True
            children, scores, chosen = found
            if len(children) <= FEW:
                chosen.add(0)
            for i, child in enumerate(children):
                score = scores[i]
                if total and total - score[0] > self.best_done:
                    self.best_done = total - score[0]
                    if run.observer is not None:
                        run.observer.note(f"{self.progress} {self.best_done}/{total}")
                opened.add(score if self.own_cells else label, weight + (0 if i in chosen else 1), score, child)
        return False

    def knows(self, state: Any) -> bool:
        """True when ``state`` was reached."""
        return state in self.parents

    def chain(self, state: Any) -> list[Any]:
        """The states from a root of the search to ``state`` (reached)."""
        chain = [state]
        parent = self.parents[state]
        while parent is not None:
            chain.append(parent)
            parent = self.parents[parent]
        chain.reverse()
        return chain

    def path(self) -> tuple[list[Any], list[Any], Any]:
        """The path to the goal found."""
        assert self.goal is not None
        return self.path_to(self.goal)

    def result(self) -> Result:
        """The `Result` of the search stepped to its end or its limit."""
        return self.run.result_of(self)


class FessSearch(FeatureSearch):
    """FESS on a problem with ``features(state)`` (module docstring): every successor is a
    move, the goal is tested on generation, the answer is the successors' actions along the
    parents and costs kept (two dictionary entries per state).  Progress notes count the first feature
    down from its value at the start (``total``)."""

    def __init__(
        self,
        problem: Any,
        *,
        own_cells: bool = False,
        patience: int = PATIENCE,
        name: str = "fess",
        limits: Limits | None = None,
        observer: Observer | None = None,
    ):
        self.problem = problem
        self.h = heuristic_of(problem)
        self.features = getattr(problem, "features", None) or _no_features
        self.advisors = getattr(problem, "advisors", None)
        root = problem.initial_state()
        score = self.score(root)
        count = len(self.features(root))
        super().__init__(name, limits, observer, features=count, own_cells=own_cells, patience=patience)
        self.total = score[0] if count else 0
        self.parents[root] = None
        self.g_of = {root: 0}  # each state's cost from the root, for the observer's events
        if problem.is_goal(root):
            self.status, self.goal = SOLVED, root
        else:
            self.opened.add(score, 0, score, root)

    def score(self, state: Any) -> tuple[Any, ...]:
        """The features of ``state``, then its heuristic (when the problem has one)."""
        features = tuple(self.features(state))
        return features if self.h is None else (*features, self.h(state))

    def expand(self, state: Any, score: Any) -> Expansion | None:
        parents, fresh, problem, g_of, observer = self.parents, self.fresh, self.problem, self.g_of, self.run.observer
        uses_h = self.h is not None
        g = g_of[state]
        if observer is not None:
            observer.expand(state, g, score[-1] if uses_h else None)
        children: list[Any] = []
        scores: list[Any] = []
        for action, child, cost in problem.successors(state):
            self.generated += 1
            if child in parents:
                self.duplicates += 1
                if observer is not None:
                    observer.generate(state, action, child, g + cost, None, "duplicate")
                continue
            parents[child] = state
            g_of[child] = g + cost
            if fresh is not None:
                fresh.append(child)
            child_score = self.score(child)
            if observer is not None:
                observer.generate(state, action, child, g + cost, child_score[-1] if uses_h else None, "new")
            if problem.is_goal(child):
                self.status, self.goal = SOLVED, child
                return None
            children.append(child)
            scores.append(child_score)
        chosen = feature_advice(score, scores, self.opened.features)
        if self.advisors is not None and children:
            chosen.update(self.advisors(state, children, scores))
        return children, scores, chosen

    def path_to(self, state: Any) -> tuple[list[Any], list[Any], Any]:
        return path_from_parents(self.problem, self.parents, state)


def _no_features(_state: Any) -> tuple[()]:
    """The features of a problem without any: one cell for every state."""
    return ()


def fess(
    problem: Any,
    *,
    own_cells: bool = False,
    patience: int = PATIENCE,
    limits: Limits | None = None,
    observer: Observer | None = None,
) -> Result:
    """FESS (`FessSearch`) on ``problem``, which offers ``features`` (and maybe ``advisors``)."""
    search = FessSearch(problem, own_cells=own_cells, patience=patience, limits=limits, observer=observer)
    search.step()
    return search.result()
