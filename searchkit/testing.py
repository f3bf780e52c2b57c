"""One executable contract for every domain: ``searchkit check`` and its pytest form.

scikit-learn holds every estimator, its own and third parties', to one contract with
``check_estimator``; this module does the same for domains.  On a few small instances it
checks what the engines rely on and no engine verifies: stable hashable states,
deterministic successors with positive costs, ``successors_with_h`` agreeing with
``successors`` and ``heuristic``, ``predecessors`` inverting ``successors``, h = 0 at
goals, declared admissibility (against exact costs-to-go) and consistency, every
``backward_heuristic`` the problems carry (built without a heuristic or with any of the
domain's: a domain may attach one together with its heuristic) never above the exact cost
from the start and agreeing with ``predecessors_with_h``, every registered engine
answering with a true label or refusing in one line, a problem's compiled rules
(`searchkit.kernels.rules`) agreeing with its Python form on the sampled states (children,
costs, actions, h, the goal test, undo and the optional functions; `COMPILED_CHECK`), and
bad options refused cleanly: each bad-value probe builds its problem in a child process
under `PROBE_TIMEOUT_S` and `PROBE_MEMORY_MB`, and one over either is reported as a value
the domain should refuse.
Each check passes, fails with a concrete counterexample, or is skipped with the reason.

The checks see only what the problem says of itself: whether a move is legal in the
domain's rules (a tile that jumps, a box pushed through a wall) is the domain's own tests'
business; a wrong move passes every check here.

In a plugin's own tests::

    from searchkit.testing import parametrize_with_checks

    @parametrize_with_checks("mydomain")
    def test_mydomain(check):
        check()
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .domain import Domain, Heuristic
from .errors import InputError
from .limits import Limits
from .plugins import engines, get_domain
from .problem import can_search_backward, describe, heuristic_of
from .result import SOLVED

if TYPE_CHECKING:
    from .kernels.rules import CompiledRules

PASS, FAIL, SKIP = "pass", "fail", "skip"
SPACE_CAP = 20_000  # states explored per instance for the structural checks
SAMPLE = 400  # states checked per instance by the per-state checks
ENGINE_TIMEOUT_S, ENGINE_MAX_EXPANDED = 10.0, 300_000
PROBE_TIMEOUT_S, PROBE_MEMORY_MB = 5.0, 1024  # the budget of each bad-value probe
TOLERANCE = 1e-9


class Skipped(Exception):
    """A check that does not apply to this domain or these instances (the reason is the
    message): under pytest it skips with the reason after `NOT_APPLICABLE`."""


NOT_APPLICABLE = "does not apply: "  # how a check's pytest skip begins


@dataclass
class Outcome:
    name: str
    status: str
    detail: str = ""

    def line(self) -> str:
        return f"{self.status.upper():<4}  {self.name}" + (f": {self.detail}" if self.detail else "")


@dataclass
class Check:
    """A named check; calling it raises AssertionError (failed, with a counterexample) or,
    under pytest, skips; `outcome` gives the same as a value."""

    name: str
    body: Callable[[], str | None]

    def outcome(self) -> Outcome:
        try:
            note = self.body()
        except Skipped as e:
            return Outcome(self.name, SKIP, str(e))
        except AssertionError as e:
            return Outcome(self.name, FAIL, str(e) or "assertion failed")
        except Exception as e:  # a crash is a failure of the contract too
            return Outcome(self.name, FAIL, f"{type(e).__name__}: {e}")
        return Outcome(self.name, PASS, note or "")

    def __call__(self) -> None:
        try:
            self.body()
        except Skipped as e:
            import pytest

            pytest.skip(f"{NOT_APPLICABLE}{e}")


# -- what the checks look at ------------------------------------------------------------------
class Space:
    """A breadth-first sample of a problem's space: its states and edges, and whether it
    was exhausted (then exact costs-to-go come from a backward Dijkstra over the edges)."""

    def __init__(self, problem: Any, cap: int = SPACE_CAP):
        start = problem.initial_state()
        self.order = [start]
        seen = {start}
        self.edges: dict[Any, list[Any]] = {}
        i = 0
        while i < len(self.order) and len(seen) < cap:
            s = self.order[i]
            i += 1
            succ = list(problem.successors(s))
            self.edges[s] = succ
            for _a, t, _c in succ:
                if t not in seen:
                    seen.add(t)
                    self.order.append(t)
        self.exhausted = i == len(self.order)
        self.goals = [s for s in self.order if problem.is_goal(s)]

    def sample(self, n: int = SAMPLE) -> list[Any]:
        """The first states found and a random spread of the others (expanded ones only)."""
        expanded = [s for s in self.order if s in self.edges]
        head, rest = expanded[: n // 2], expanded[n // 2 :]
        return head + random.Random(0).sample(rest, min(len(rest), n - len(head)))

    def cost_to_go(self) -> dict[Any, Any] | None:
        """Exact cost-to-go of every state, when the whole space was explored."""
        if not self.exhausted:
            return None
        back: dict[Any, list[Any]] = {}
        for s, succ in self.edges.items():
            for _a, t, c in succ:
                back.setdefault(t, []).append((s, c))
        return _dijkstra(self.goals, lambda s: back.get(s, ()))


def _dijkstra(sources: list[Any], neighbours: Callable[[Any], Any], cap: int | None = None) -> dict[Any, Any]:
    dist: dict[Any, Any] = {}
    heap = [(0, i, s) for i, s in enumerate(sources)]
    heapq.heapify(heap)
    tie = len(heap)
    while heap and (cap is None or len(dist) < cap):
        d, _t, s = heapq.heappop(heap)
        if s in dist:
            continue
        dist[s] = d
        for t, c in neighbours(s):
            if t not in dist:
                tie += 1
                heapq.heappush(heap, (d + c, tie, t))
    return dist


def exact_costs(problem: Any, space: Space) -> tuple[dict[Any, Any], str]:
    """Exact costs-to-go of as many states as can be had cheaply, and how they were had."""
    exact = space.cost_to_go()
    if exact is not None:
        return exact, "the whole space"
    if can_search_backward(problem):
        goals = list(problem.goal_states())
        near = _dijkstra(goals, lambda s: [(p, c) for _a, p, c in problem.predecessors(s)], cap=SPACE_CAP)
        return near, "states near the goals (backward search)"
    return {}, "no exact costs (space too large, no predecessors)"


def exact_costs_from_start(problem: Any) -> dict[Any, Any]:
    """The exact cost from the start of the `SPACE_CAP` states nearest it (Dijkstra over
    ``successors``: every state it settles has its true cost)."""
    return _dijkstra([problem.initial_state()], lambda s: [(t, c) for _a, t, c in problem.successors(s)], cap=SPACE_CAP)


# -- building the problems ------------------------------------------------------------------------
def _options(domain: Domain, options: dict[str, Any]) -> dict[str, Any]:
    full = {p.name: p.default for p in domain.params}
    full.update(options)
    return full


def _problem(domain: Domain, options: dict[str, Any], heuristic: Heuristic | None) -> Any:
    return domain.make_problem(_options(domain, options), heuristic)


Built = list[tuple[dict[str, Any], Any]]  # (options, problem) per instance


class Problems:
    """The instances' problems, each built once: ``plain`` without a heuristic, built at once
    (a refusal there is the user's error and raises InputError), and `with_heuristic`."""

    def __init__(self, dom: Domain, instances: list[dict[str, Any]]):
        self.dom, self.instances = dom, instances
        self.plain: Built = [(options, _problem(dom, options, None)) for options in instances]
        self._with: dict[str, tuple[Built, list[InputError]]] = {}

    def with_heuristic(self, h: Heuristic) -> Built:
        """The instances the domain builds with ``h``; Skipped when it refuses every one (the
        heuristic is not for these instances)."""
        if h.name not in self._with:
            built: Built = []
            refusals: list[InputError] = []
            for options in self.instances:
                try:
                    built.append((options, _problem(self.dom, options, h)))
                except InputError as e:
                    refusals.append(e)
            self._with[h.name] = built, refusals
        built, refusals = self._with[h.name]
        if not built:
            raise Skipped(f"not for these instances ({refusals[0]})")
        return built


def label(domain: Domain, options: dict[str, Any]) -> str:
    """An instance as ``name=value`` pairs (the domain's name when it has no options)."""
    return " ".join(f"{k}={v}" for k, v in options.items()) or domain.name


def _where(problem: Any, state: Any) -> str:
    text = " / ".join(describe(problem, state).split("\n"))
    return text if len(text) <= 160 else text[:157] + "..."


# -- the checks ------------------------------------------------------------------------------------
def checks(domain: str | Domain, instances: list[dict[str, Any]] | None = None) -> list[Check]:
    """The contract's checks for ``domain`` on ``instances`` (default: the domain's own
    `Domain.check_instances`); raises InputError when there is nothing to check."""
    dom = get_domain(domain) if isinstance(domain, str) else domain
    instances = list(instances) if instances else dom.check_instances()
    if not instances:
        raise InputError(f"domain {dom.name!r} offers no small instances to check: give its options")
    problems = Problems(dom, instances)
    plain = problems.plain
    spaces = {id(p): Space(p) for _o, p in plain}

    def structure() -> str:
        for options, problem in plain:
            space = spaces[id(problem)]
            for s in space.sample():
                hash(s)
                assert s == s, f"{label(dom, options)}: a state is not equal to itself: {_where(problem, s)}"
                first = [(a, t, c) for a, t, c in problem.successors(s)]
                again = [(a, t, c) for a, t, c in problem.successors(s)]
                assert _same(first, again), (
                    f"{label(dom, options)}: successors differ between two calls at {_where(problem, s)}"
                )
                for a, t, c in first:
                    assert hash(t) == hash(t) and t == t, f"unstable state after {a!r} from {_where(problem, s)}"
                    assert c > 0 and math.isfinite(c), (
                        f"{label(dom, options)}: step {a!r} costs {c} (must be positive) at {_where(problem, s)}"
                    )
        return f"{sum(len(spaces[id(p)].order) for _o, p in plain):,} states explored"

    def backward() -> str:
        checked = 0
        for options, problem in plain:
            if not can_search_backward(problem):
                raise Skipped("the domain offers no goal_states/predecessors")
            for g in problem.goal_states():
                assert problem.is_goal(g), f"{label(dom, options)}: goal_states gives a non-goal {_where(problem, g)}"
            for s in spaces[id(problem)].sample():
                for a, t, c in problem.successors(s):
                    back = [(pa, p, pc) for pa, p, pc in problem.predecessors(t)]
                    assert any(p == s and pa == a and math.isclose(pc, c) for pa, p, pc in back), (
                        f"{label(dom, options)}: {a!r} leads from {_where(problem, s)} to {_where(problem, t)} "
                        f"but predecessors of the latter do not give it back"
                    )
                for a, p, c in problem.predecessors(s):
                    fwd = list(problem.successors(p))
                    assert any(t == s and fa == a and math.isclose(fc, c) for fa, t, fc in fwd), (
                        f"{label(dom, options)}: predecessors of {_where(problem, s)} name {a!r} from "
                        f"{_where(problem, p)}, which successors do not have"
                    )
                checked += 1
        return f"{checked:,} states"

    out = [
        Check("states hashable, successors deterministic, costs positive", structure),
        Check("predecessors invert successors", backward),
        *_backward_heuristic_checks(dom, problems),
    ]
    for h in dom.heuristics.values():
        out += _heuristic_checks(dom, problems, h)
    out.append(Check(COMPILED_CHECK, _compiled_check(dom, problems, spaces)))
    out += [Check(f"engine {name}", _engine_check(dom, instances, name)) for name in engines()]
    out.append(Check("bad options are refused cleanly", _options_check(dom, instances[0])))
    return out


def _same(a: list[Any], b: list[Any]) -> bool:
    try:
        return sorted(map(repr, a)) == sorted(map(repr, b)) and len(a) == len(b) and set(a) == set(b)
    except TypeError:  # unhashable actions: compare as lists
        return sorted(map(repr, a)) == sorted(map(repr, b))


def _agrees(
    where: str,
    problem: Any,
    name: str,
    steps: Callable[[Any], Any],
    inc: Callable[[Any, float], Any],
    fn: Callable[[Any], float],
) -> int:
    """Assert that the incremental ``inc`` (``name``) gives ``steps``' neighbours with ``fn`` of
    each, on a sample of states of the instance ``where`` names; the count of states checked."""
    count = 0
    for s in Space(problem, 2000).sample(200):
        hs = fn(s)
        if not math.isfinite(hs):
            continue  # a dead state: its neighbours are never asked for
        got = [(a, t, c, ch) for a, t, c, ch in inc(s, hs)]
        # neighbours the heuristic proves dead (h infinite) may be left out
        want = [(a, t, c) for a, t, c in steps(s) if math.isfinite(fn(t))]
        kept = [(a, t, c) for a, t, c, ch in got if math.isfinite(ch)]
        assert _same(kept, want), f"{where}: {name} gives other states than it should at {_where(problem, s)}"
        for a, t, _c, ch in got:
            ht = fn(t)
            assert ch == ht or (math.isfinite(ht) and math.isclose(ch, ht)), (
                f"{where}: after {a!r} from {_where(problem, s)} {name} says h = {ch}, the heuristic says {ht}"
            )
        count += 1
    return count


def _backward_heuristic_checks(dom: Domain, problems: Problems) -> list[Check]:
    """``backward_heuristic`` (an estimate of the cost from the start) on every problem that
    has one, built without a heuristic or with any of the domain's (a domain may attach it
    together with the heuristic): its incremental form agrees with it, and it never
    overestimates the exact cost from the start (unless it came with a heuristic declared
    inadmissible: answers guided by that promise nothing)."""
    Found = list[tuple[Heuristic | None, dict[str, Any], Any, Callable[[Any], float]]]

    def with_backward() -> Found:
        """``(heuristic built with, options, problem, backward_heuristic)`` of each problem with one."""
        sources: list[tuple[Heuristic | None, Built]] = [(None, problems.plain)]
        for h in dom.heuristics.values():
            try:
                sources.append((h, problems.with_heuristic(h)))
            except Skipped:
                continue  # not for these instances: the heuristic's own checks say so
        out = [
            (h, options, problem, fn)
            for h, built in sources
            for options, problem in built
            if callable(fn := getattr(problem, "backward_heuristic", None))
        ]
        if not out:
            raise Skipped("no backward_heuristic, built without a heuristic or with any of the domain's")
        return out

    def how(h: Heuristic | None) -> str:
        return "without a heuristic" if h is None else f"with heuristic {h.name}"

    def hows(found: Found) -> str:
        return ", ".join(dict.fromkeys(how(h) for h, *_rest in found))

    def incremental() -> str:
        count, found = 0, []
        for h, options, problem, fn in with_backward():
            inc = getattr(problem, "predecessors_with_h", None)
            if inc is None or not can_search_backward(problem):
                continue
            where = f"{label(dom, options)} {how(h)}"
            count += _agrees(where, problem, "predecessors_with_h", problem.predecessors, inc, fn)
            found.append((h, options, problem, fn))
        if not found:
            raise Skipped("no predecessors_with_h")
        return f"{count:,} states ({hows(found)})"

    def admissible() -> str:
        count, found = 0, [f for f in with_backward() if f[0] is None or f[0].admissible]
        if not found:
            raise Skipped("only with heuristics declared inadmissible")
        for h, options, problem, fn in found:
            for s, cost in exact_costs_from_start(problem).items():
                hs = fn(s)
                assert hs <= cost + TOLERANCE, (
                    f"{label(dom, options)} {how(h)}: backward_heuristic = {hs} but the exact cost from the start "
                    f"is {cost} at {_where(problem, s)}"
                )
                count += 1
        return f"{count:,} states with exact costs from the start ({hows(found)})"

    return [
        Check("backward heuristic: predecessors_with_h agrees", incremental),
        Check("backward heuristic: admissible", admissible),
    ]


def _heuristic_checks(dom: Domain, built: Problems, h: Heuristic) -> list[Check]:
    def problems() -> Built:
        return built.with_heuristic(h)

    def incremental() -> str:
        count = 0
        for options, problem in problems():
            inc = getattr(problem, "successors_with_h", None)
            fn = heuristic_of(problem)
            if inc is None or fn is None:
                raise Skipped("no successors_with_h")
            count += _agrees(label(dom, options), problem, "successors_with_h", problem.successors, inc, fn)
        return f"{count:,} states"

    def goal_zero() -> str:
        count = 0
        for options, problem in problems():
            fn = heuristic_of(problem)
            assert fn is not None, f"{label(dom, options)}: built with heuristic {h.name}, it has none"
            space = Space(problem, 5000)
            # each goal once: the sample's and goal_states() name the same ones
            goals = list(
                dict.fromkeys(space.goals + (list(problem.goal_states()) if can_search_backward(problem) else []))
            )
            if not goals:
                raise Skipped("no goal state within reach of the sample")
            for g in goals:
                assert fn(g) == 0, f"{label(dom, options)}: h = {fn(g)} at the goal {_where(problem, g)}"
                count += 1
        return f"{count} goal state{'' if count == 1 else 's'}"

    def admissible() -> str:
        if not h.admissible:
            raise Skipped("declared inadmissible")
        count, hows = 0, []
        for options, problem in problems():
            fn = heuristic_of(problem)
            assert fn is not None, f"{label(dom, options)}: built with heuristic {h.name}, it has none"
            exact, how = exact_costs(problem, Space(problem))
            if not exact:
                raise Skipped(how)
            hows.append(how)
            for s, cost in exact.items():
                hs = fn(s)
                assert hs <= cost + TOLERANCE, (
                    f"{label(dom, options)}: h = {hs} but the exact cost to go is {cost} at {_where(problem, s)}"
                )
                count += 1
        return f"{count:,} states with exact costs ({', '.join(dict.fromkeys(hows))})"

    def consistent() -> str:
        if not h.consistent:
            raise Skipped("not declared consistent")
        count = 0
        for options, problem in problems():
            fn = heuristic_of(problem)
            assert fn is not None, f"{label(dom, options)}: built with heuristic {h.name}, it has none"
            for s in Space(problem, 5000).sample():
                hs = fn(s)
                for a, t, c in problem.successors(s):
                    assert hs <= c + fn(t) + TOLERANCE, (
                        f"{label(dom, options)}: h drops from {hs} to {fn(t)} "
                        f"over a step of cost {c} ({a!r} from {_where(problem, s)})"
                    )
                    count += 1
        return f"{count:,} edges"

    return [
        Check(f"heuristic {h.name}: successors_with_h agrees", incremental),
        Check(f"heuristic {h.name}: 0 at goals", goal_zero),
        Check(f"heuristic {h.name}: admissible", admissible),
        Check(f"heuristic {h.name}: consistent", consistent),
    ]


COMPILED_CHECK = "compiled rules agree with the problem"


def _compiled_check(dom: Domain, problems: Problems, spaces: dict[int, Space]) -> Callable[[], str]:
    """The compiled rules (`searchkit.kernels.rules`) of every problem that offers them, built
    without a heuristic or with any of the domain's, against the Python problem on the
    instance's sampled states (`_compiled_agree`); Skipped when no problem offers compiled
    rules or numba is not available here."""

    def body() -> str:
        from .compiled import numba_available
        from .kernels.rules import rules_of

        sources: list[tuple[str, Built, Callable[[Any], list[Any]]]] = [
            ("without a heuristic", problems.plain, lambda p: spaces[id(p)].sample())
        ]
        for h in dom.heuristics.values():
            try:
                sources.append(
                    (f"with heuristic {h.name}", problems.with_heuristic(h), lambda p: Space(p, 5000).sample())
                )
            except Skipped:
                continue  # not for these instances: the heuristic's own checks say so
        found = [
            (f"{label(dom, options)} {how}", problem, sample, rules)
            for how, built, sample in sources
            for options, problem in built
            if (rules := rules_of(problem)) is not None
        ]
        if not found:
            raise Skipped("the problems offer no compiled rules (compiled_rules)")
        if not numba_available():
            raise Skipped("numba is not available here (install searchkit[fast])")
        count = 0
        for where, problem, sample, rules in found:
            rules.check()
            count += _compiled_agree(where, problem, rules, sample(problem))
        return f"{count:,} states ({len(found)} problem{'' if len(found) == 1 else 's'})"

    return body


def _compiled_agree(where: str, problem: Any, rules: CompiledRules, states: list[Any]) -> int:
    """Assert, state by state, that ``rules`` (a `CompiledRules`) agree with ``problem`` on
    ``states``: ``decode(encode(s)) == s``; ``is_goal`` as the problem's; ``h`` as the
    problem's heuristic (when it has one; negative exactly where it is infinite); ``moves``
    (leaving the words alone) with ``apply`` give the children, costs and actions (``action``)
    of ``successors``, as multisets; ``undo`` restores the words, ``cost``, ``h_after`` and
    ``hs_after`` (without changing them) give what ``apply``, ``h`` and ``hs`` of the child give, ``apply`` keeps
    the derived words as ``derive`` makes them, and ``inverse`` names a move of the child
    that leads back (when the rules offer them).  The message of a disagreement names the
    first state (``where``: the instance) and what disagreed; the count of states checked otherwise."""
    import numpy as np

    from .kernels.rules import MAX_MOVES

    fns = rules.functions()
    ctx, fn = rules.context, heuristic_of(problem)
    out = np.full(MAX_MOVES, -1, dtype=np.int64)  # room for any move list: more than max_moves is reported

    def encode(state: Any) -> Any:
        keys = np.ascontiguousarray(rules.encode(state), dtype=np.uint64)
        assert keys.shape == (rules.keys,), f"encode gives {keys.shape} words, not ({rules.keys},)"
        return derived(keys)

    def derived(keys: Any) -> Any:
        """The whole words of the key words ``keys`` (the derived ones filled in)."""
        return rules.words(keys, fns.get("derive"))

    def legal(words: Any) -> list[int]:
        before = words.copy()
        n = int(fns["moves"](words, ctx, out))
        assert np.array_equal(words, before), "moves changes the state"
        assert 0 <= n <= rules.max_moves, f"moves gives {n} moves (max_moves is {rules.max_moves})"
        found = [int(m) for m in out[:n]]
        assert all(0 <= m < MAX_MOVES for m in found), f"moves gives a move code outside 0-{MAX_MOVES - 1}: {found}"
        return found

    for s in states:
        try:
            _compiled_state(problem, rules, fns, fn, encode, derived, legal, s)
        except AssertionError as e:
            raise AssertionError(f"{where}: compiled rules {rules.module}: {e} at {_where(problem, s)}") from None
    return len(states)


def _compiled_state(
    problem: Any,
    rules: CompiledRules,
    fns: dict[str, Any],
    fn: Callable[[Any], float] | None,
    encode: Callable[[Any], Any],
    derived: Callable[[Any], Any],
    legal: Callable[[Any], list[int]],
    s: Any,
) -> None:
    """`_compiled_agree` on the one state ``s`` (an AssertionError saying what disagreed): the
    state itself, then its children against ``successors``, then the optional functions."""
    import numpy as np

    ctx, kw = rules.context, rules.keys
    words = encode(s)
    back = rules.decode(words[:kw].copy())
    assert back == s, f"decode(encode(state)) gives another state ({_where(problem, back)})"
    goal, want = bool(fns["is_goal"](words, ctx)), bool(problem.is_goal(s))
    assert goal == want, f"is_goal says {goal}, the problem says {want}"
    hs = int(fns["h"](words, ctx))
    if fn is not None:
        hp = fn(s)
        same = hs < 0 if not math.isfinite(hp) else hs >= 0 and math.isclose(hs, hp, abs_tol=TOLERANCE)
        assert same, f"h = {hs}, the heuristic says {hp}"
    compiled = []  # (move, action, child's words, child, cost)
    for m in legal(words):
        action = rules.action(m, words.copy())
        child = words.copy()
        c = int(fns["apply"](child, m, ctx))
        assert np.array_equal(child, derived(child)), f"apply of move {m} leaves derived words derive would change"
        compiled.append((m, action, child, rules.decode(child[:kw].copy()), c))
    left = [(a, t, c) for a, t, c in problem.successors(s)]
    everyone = list(left)
    for m, action, _w, t, c in compiled:
        # the successor it stands for: the same child, action and cost, else the same child
        j = next((j for j, (a, u, k) in enumerate(left) if u == t and a == action and math.isclose(k, c)), None)
        if j is None:
            j = next((j for j, (_a, u, _k) in enumerate(left) if u == t), None)
        assert j is not None, f"move {m} ({action!r}) leads to {_where(problem, t)}, a child successors do not give" + (
            " (as often)" if any(u == t for _a, u, _k in everyone) else ""
        )
        a, _u, k = left.pop(j)
        assert math.isclose(k, c), f"move {m} ({action!r}) costs {c}, successors say {k}"
        assert a == action, f"move {m} is action {action!r}, successors name {a!r} for its child"
    assert not left, f"successors give {left[0][0]!r} to {_where(problem, left[0][1])}, which no compiled move gives"
    for m, _action, child, _t, c in compiled:
        if "cost" in fns:
            priced = int(fns["cost"](words, m, ctx))
            assert priced == c, f"cost of move {m} is {priced}, apply returns {c}"
        if "h_after" in fns and hs >= 0:
            after, ht = int(fns["h_after"](words, m, hs, ctx)), int(fns["h"](child, ctx))
            assert after == ht or (after < 0 and ht < 0), f"h_after of move {m} is {after}, h of its child is {ht}"
        if "hs_after" in fns:
            after_all, child_all = np.zeros(rules.lists, np.int64), np.zeros(rules.lists, np.int64)
            fns["hs_after"](words, m, ctx, after_all)
            fns["hs"](child, ctx, child_all)
            dead = after_all.min() < 0, child_all.min() < 0
            same = dead[0] and dead[1] or not (dead[0] or dead[1]) and np.array_equal(after_all, child_all)
            assert same, f"hs_after of move {m} is {after_all.tolist()}, hs of its child is {child_all.tolist()}"
        assert np.array_equal(words, encode(s)), f"cost, h_after or hs_after of move {m} changes the state"
        if "undo" in fns:
            undone = child.copy()
            fns["undo"](undone, m, ctx)
            assert np.array_equal(undone[:kw], words[:kw]), f"undo of move {m} does not restore the state"
        if "inverse" in fns:
            im = int(fns["inverse"](m, ctx))
            if im >= 0:
                assert im in legal(child), f"inverse of move {m} is {im}, not a move of its child"
                again = child.copy()
                fns["apply"](again, im, ctx)
                assert np.array_equal(again, words), f"inverse of move {m} is {im}, which does not lead back"


def _per_instance(notes: list[str]) -> str:
    """One note per instance, in the instances' order; identical notes are said once with the
    instances (numbered from 1) they hold for, so that every instance is accounted for."""
    which: dict[str, list[int]] = {}
    for i, note in enumerate(notes, 1):
        which.setdefault(note, []).append(i)
    if len(which) == len(notes):
        return "; ".join(notes)
    if len(which) == 1:
        return f"{notes[0]} (all {len(notes)} instances)"
    return "; ".join(
        f"{note} (instance{'s' if len(ns) > 1 else ''} {', '.join(map(str, ns))})" for note, ns in which.items()
    )


def _engine_check(dom: Domain, instances: list[dict[Any, Any]], name: str) -> Callable[[], str]:
    from .solving import execute, prepare

    def reference(options: dict[Any, Any], engine: str) -> Any:
        return execute(
            prepare(dom, dict(options), engine), Limits(timeout_s=ENGINE_TIMEOUT_S, max_expanded=ENGINE_MAX_EXPANDED)
        )

    def body() -> str:
        notes = []
        for options in instances:
            try:
                job = prepare(dom, dict(options), name)
                result = execute(
                    job, Limits(timeout_s=ENGINE_TIMEOUT_S, max_expanded=ENGINE_MAX_EXPANDED)
                )  # replays the answer or raises AssertionError
            except InputError as e:  # refused: before building the problem, or by the engine before searching
                assert "\n" not in str(e), f"a refusal of more than one line: {e!r}"
                notes.append(f"refused: {e}")
                continue
            guarantee = result.guarantee or ""
            if result.status != SOLVED:
                exact = reference(options, "dijkstra")
                if result.status == "no-solution":
                    assert exact.status != SOLVED, (
                        f"{label(dom, options)}: no-solution, but there is one of cost {exact.cost}"
                    )
                notes.append(
                    f"{result.status} ({result.stats.limit_reason})" if result.stats.limit_reason else result.status
                )
                continue
            if guarantee == "optimal":
                exact = reference(options, "dijkstra")
                assert exact.status != SOLVED or math.isclose(result.cost or 0, exact.cost), (
                    f"{label(dom, options)}: labelled optimal with cost {result.cost}, the optimum is {exact.cost}"
                )
            elif guarantee.startswith("optimal (fewest steps)"):
                exact = reference(options, "bfs")
                assert exact.status != SOLVED or len(result.actions) == len(exact.actions), (
                    f"{label(dom, options)}: labelled fewest steps with {len(result.actions)}, "
                    f"breadth-first finds {len(exact.actions)}"
                )
            notes.append(f"cost {result.cost:g}, {guarantee}")
        return _per_instance(notes)

    return body


def _options_check(dom: Domain, options: dict[Any, Any]) -> Callable[[], str]:
    """Each of the domain's options set to a bad value (text that names nothing, -1,
    99999999) on the instance ``options``: the problem must be refused with a one-line
    InputError, or built within the probe's budget (`probe`)."""

    def body() -> str:
        tried, faults = 0, []
        for p in dom.params:
            if p.output or p.type is bool:
                continue
            flag = f"--{p.name.replace('_', '-')}"
            for bad in ("%%no such value%%", "-1", "99999999"):
                value: Any = bad
                if p.type in (int, float):
                    if not bad.lstrip("-").isdigit():
                        continue  # the command line refuses a non-number before the domain sees it
                    value = p.type(bad)
                shown = bad if p.type in (int, float) else repr(bad)
                outcome, detail = probe(dom, dict(options, **{p.name: value}))
                if outcome == REFUSED and "\n" in detail:
                    faults.append(f"{flag} {shown}: a refusal of more than one line")
                elif outcome == CRASHED:
                    faults.append(f"{flag} {shown}: {detail} (bad input must raise InputError)")
                elif outcome in (OVER_TIME, OVER_MEMORY):
                    budget = f"{PROBE_TIMEOUT_S:g} s" if outcome == OVER_TIME else f"{PROBE_MEMORY_MB} MB"
                    faults.append(
                        f"accepted {flag} {shown} and took more than {budget}: state a limit "
                        f"(refuse such values with an InputError)"
                    )
                tried += 1
        assert not faults, "; ".join(faults)
        return f"{tried} bad values"

    return body


# -- building a problem under a budget --------------------------------------------------------------
BUILT, REFUSED, CRASHED, OVER_TIME, OVER_MEMORY = "built", "refused", "crashed", "over time", "over memory"


def probe(dom: Domain, options: dict[str, Any]) -> tuple[str, str]:
    """Build the problem ``options`` describe as ``searchkit solve`` would (default engine and
    heuristic) within `PROBE_TIMEOUT_S` and `PROBE_MEMORY_MB`: ``(outcome, detail)`` with
    outcome `BUILT`, `REFUSED` (detail: the InputError's message), `CRASHED` (detail: the
    exception), `OVER_TIME` or `OVER_MEMORY`.

    The build runs in a forked child process (it inherits ``dom`` as it is, registered through
    an entry point or not), killed at the time budget, its address space capped at its size
    when forked plus the memory budget.  Where processes cannot be forked, it runs in a
    thread under the time budget only, and a build over it is left running."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        return _probe_in_thread(dom, options)
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_probe_child, args=(dom, options, send))
    child.start()
    send.close()
    try:
        if not receive.poll(PROBE_TIMEOUT_S):
            return OVER_TIME, ""
        try:
            answer: tuple[str, str] = receive.recv()
            return answer
        except EOFError:  # died without a word: killed, or out of memory inside native code
            child.join()
            return CRASHED, f"the process building it died (exit code {child.exitcode})"
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()


def _probe_child(dom: Domain, options: dict[str, Any], send: Any) -> None:
    _cap_memory(PROBE_MEMORY_MB)
    send.send(_build(dom, options))
    send.close()


def _cap_memory(megabytes: int) -> None:
    """Cap this process's address space at its present size (read from /proc/self/statm)
    plus ``megabytes``; where there is no /proc, leave it uncapped."""
    import os
    import resource

    try:
        with open("/proc/self/statm") as f:
            size = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = size + (megabytes << 20)
    resource.setrlimit(resource.RLIMIT_AS, (cap if hard == resource.RLIM_INFINITY else min(cap, hard), hard))


def _build(dom: Domain, options: dict[str, Any]) -> tuple[str, str]:
    from .solving import prepare

    try:
        prepare(dom, dict(options))
    except InputError as e:
        return REFUSED, str(e)
    except MemoryError:
        return OVER_MEMORY, ""
    except Exception as e:
        return CRASHED, f"{type(e).__name__}: {e}"
    return BUILT, ""


def _probe_in_thread(dom: Domain, options: dict[str, Any]) -> tuple[str, str]:
    import threading

    answer: list[tuple[str, str]] = []
    worker = threading.Thread(target=lambda: answer.append(_build(dom, options)), daemon=True)
    worker.start()
    worker.join(PROBE_TIMEOUT_S)
    return answer[0] if answer else (OVER_TIME, "")


def run_checks(domain: str | Domain, instances: list[dict[str, Any]] | None = None) -> Iterator[Outcome]:
    """Every check's outcome, in order."""
    for check in checks(domain, instances):
        yield check.outcome()


def parametrize_with_checks(domain: str, instances: list[dict[str, Any]] | None = None) -> Any:
    """A ``pytest.mark.parametrize`` over the contract's checks: one test per check."""
    import pytest

    found = checks(domain, instances)
    return pytest.mark.parametrize("check", found, ids=[c.name for c in found])
