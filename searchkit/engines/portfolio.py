"""Portfolio: several whole searches sharing the time, the first answer wins.

Searches fail on different instances (greedy forwards on Sokoban levels whose goals must
be filled in order, the same search backwards elsewhere), so running them side by side
solves what each alone does not, at a bounded cost.  Each member keeps its own open and
closed lists (sharing one lets each spoil the other's order; for one shared closed list
see `alternation`):

* the first member runs alone for ``solo`` CPU seconds (CPU time, so a busy machine gives
  it the same work), so instances it solves at once never pay for the others; a member
  written ``SEARCH@T`` waits longer, until the portfolio has used ``T`` CPU seconds (a
  search for hard instances that would only slow the easy ones down), and a member written
  ``SEARCH<U`` stops searching once the portfolio has used ``U`` CPU seconds (a search that
  answers early or never, whose time the others then share; with ``meet`` the states it
  stored still meet the other direction's);
* then every member is stepped in turn, the one furthest behind its share of the time
  first (time, not expansions, because nodes of different searches cost different
  amounts): a member written ``SEARCH*W`` has a share of ``W``, the others 1, and
  ``shares``, one positive number per member, overrides them all;
* with ``lead`` above 1, a member whose search reports how far it has come
  (``progress_fraction()``, 0 to 1, the same measure as the others that report one) and is
  `LEAD_MARGIN` or more ahead of every other such member has ``lead`` times its share while
  it is: of several searches of one kind, the one that is getting somewhere gets the time
  (off by default; Sasquatch II 38 falls to FESS counting stranded goals alone in 11 s,
  31 of 32 goals after 6, while plain FESS has 9).

Under a memory limit (``Limits.max_rss_mb``) the portfolio does not stop when memory runs
short while several members search: at `RETIRE_AT` of the limit it *retires* the member
that holds the most memory for its share (its counts stay in the statistics, its states
are freed; a large share says the member is worth its room) and
the others go on in the room it leaves; the next is retired only once the rest hold as
much as all did then and memory is still short.  Long runs of hard instances
thus end by the clock or with one member left, not with every member stopped at once by
the one that fills memory fastest.  A member's memory is what its search says it holds
(``memory_bytes``, optional: a compiled search's arrays), or else its stored states at the
bytes a state the process's memory gives the members that do not say (measured at the
first retirement: freed memory is reused, not returned, so later readings would count it
again).  States alone misled: a compiled search's take about 120 bytes, a Python search's
several hundred, so the room a retired compiled search left was counted as room for as
many Python states, and XSokoban 28 passed the limit at 188 s of a 600 s run.
A table about to grow counts as taken (`searchkit.tables`: a dictionary of 5 million
states claims 320 MB more in one step, between two readings of memory): when that step
would pass the limit while several members search, the member about to take it retires
instead of the portfolio stopping (at XSokoban's 10 minutes the default passed a
2,000 MiB limit by up to 134 MiB before).

A member is ``ORDER[:HEURISTIC]`` (greedy, astar or dijkstra forwards; a bare heuristic
name means greedy on it), ``backward[:VARIANT]`` (greedy from the goal states over
``predecessors``, on the problem or its variant of that name) or ``search:NAME``, a search
of the domain's own that the problem makes with ``member_search(NAME, observer)`` (any
object with `Steppable`'s members).  A problem's ``variant`` or ``member_search`` may answer None for a
member it cannot run (that member is left out).  The result's ``answered_by`` names the
member whose answer it is.  Limits count the
work and the states of all members; an observer sees every member's expansions and
generations (a backward member's ``g`` counts from its goal) and the portfolio's progress
over all of them.  The answer of a search that ran out of states is a proof of
unsolvability only when that member's problem prunes no solution.

With ``meet``, the forward and backward members also look for each other: every state one
of them stores is looked up among the states the other direction has reached, and a
state both know joins the forward path to it and the backward path from it into one
answer (``answered_by`` names both).  A greedy search forwards and one backwards need not
each cross the whole space then, only meet.  It needs members whose problems share their
states (the problem's own and its variants; a ``search:NAME`` member takes part when it
has `Steppable`'s ``fresh``, ``knows`` and ``path_to``, forwards unless it says
``backward = True``; ``knows_any(states)``, the index of the first one reached or -1, is
asked instead of ``knows`` when a search has it).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Mapping
from time import perf_counter, process_time
from typing import Any, Protocol

from .. import limits as limits_module
from ..errors import InputError
from ..limits import Limits
from ..observer import Observer
from ..problem import can_search_backward, heuristic_of, preserves_solutions
from ..result import INCOMPLETE, LIMIT, NO_SOLUTION, SOLVED, Result
from ..tables import growth_ahead
from .backward import backward_search, forward_path
from .bestfirst import BestFirstSearch
from .paths import joined
from .run import Run

ORDERS = ("greedy", "astar", "dijkstra")
BACKWARD = "backward"
SEARCH = "search"  # a search the problem makes itself: search:NAME
BATCH = 32  # expansions per turn: fewer switches between the searches
TURN_SECONDS = 1.0  # nor more than a member's pace does in this; a turn as long: the limits checked after it
INF = float("inf")
LEAD_MARGIN = 0.15  # how far ahead of every other (fraction of the way) a member leads
RETIRE_AT = 0.8  # of the memory limit: the member storing the most for its share is retired there
COUNTS = ("expanded", "generated", "duplicates", "reopened")  # a retired member's, kept


class _EventsOnly(Observer):
    """A member's events without its own progress reports (the portfolio reports the sum)."""

    def __init__(self, inner: Observer):
        self.inner = inner

    def expand(self, state: Any, g: float, h: float | None) -> None:
        self.inner.expand(state, g, h)

    def generate(self, parent: Any, action: Any, child: Any, g: float, h: float | None, kind: str) -> None:
        self.inner.generate(parent, action, child, g, h, kind)

    def iteration(self, bound: float) -> None:
        self.inner.iteration(bound)

    def note(self, text: str) -> None:
        self.inner.note(text)


class Steppable(Protocol):
    """What the portfolio asks of a member's search (`BestFirstSearch` has it all)."""

    problem: Any
    status: str | None
    expanded: int
    generated: int
    duplicates: int
    reopened: int

    @property
    def done(self) -> bool: ...

    @property
    def stored(self) -> int: ...

    @property
    def frontier(self) -> int: ...

    def step(self, budget: int | None = None) -> bool: ...

    def path(self) -> tuple[list[Any], list[Any], Any]: ...

    # for ``meet`` (optional): the states stored since the list was last emptied (None: not
    # collected; the portfolio sets a list), whether a state was reached, the path to it
    fresh: list[Any] | None

    def knows(self, state: Any) -> bool: ...

    def path_to(self, state: Any) -> tuple[list[Any], list[Any], Any]: ...

    # for ``lead`` (optional, looked up by `Member.progress`): ``progress_fraction()``, how far
    # it has come, 0 to 1 (None: no measure)

    # for the memory limit (optional, looked up by `Retirement`): ``memory_bytes``, the bytes
    # its states take (None or missing: estimated from the process's memory); and
    # ``growth_ahead(within)``, the bytes its tables claim if they grow within ``within`` more
    # states (missing: its dictionaries and sets are read, `searchkit.tables`)


class Member:
    """One search of a portfolio, with the time it has used."""

    def __init__(
        self,
        search: Steppable,
        path: Callable[[Any], tuple[Any, ...]],
        share: float,
        label: str = "",
        backward: bool = False,
        leave: float = INF,
    ):
        self.search, self.path_of, self.share, self.label = search, path, share, label
        self.backward, self.leave = backward, leave
        self.spent = 0.0
        self.order = 0  # its place among the members in the order they joined
        self.own = 0.0  # seconds of its own turns (``spent`` also counts the level it joined at)
        self.worked = 0  # expansions in those turns

    def turn(self, most: int, left: float | None = None) -> int:
        """Expansions for its next turn: ``most``, fewer when at its pace they would take
        more than `TURN_SECONDS` or the ``left`` seconds to the deadline (a limit is
        checked between turns: a search expanding a box's every macro on a level of 160
        boxes ran 15 s past a 60 s limit).  Its first turn is one expansion, which tells
        its pace: 32 of FESS on a dense level took 1.6 s, past a limit of 4 s."""
        if not self.worked:
            return min(most, 1)
        seconds = TURN_SECONDS if left is None else min(TURN_SECONDS, left)
        if self.own * most <= seconds * self.worked:
            return most  # fast: ``most`` take no longer
        return max(1, min(most, int(seconds * self.worked / self.own)))

    def take_turn(self, budget: int) -> float:
        """Up to ``budget`` expansions of its search; the seconds they took."""
        began, before = perf_counter(), self.search.expanded
        self.search.step(budget)
        took = perf_counter() - began
        self.spent += took
        self.own += took
        self.worked += self.search.expanded - before
        return took

    def can_meet(self) -> bool:
        return hasattr(self.search, "fresh") and callable(getattr(self.search, "knows", None))

    def proves_unsolvable(self) -> bool:
        return self.search.status == NO_SOLUTION and preserves_solutions(self.search.problem)

    def progress(self) -> float | None:
        report = getattr(self.search, "progress_fraction", None)
        return report() if callable(report) else None

    def summary(self, retired: bool = False) -> dict[str, Any]:
        """What it did, for the result's ``stats.members``."""
        search = self.search
        return {
            "member": self.label,
            "seconds": round(self.own, 3),
            "expanded": int(search.expanded),
            "stored": int(search.stored),
            "retired": retired,
        }


class Retirement:
    """Memory pressure under a memory limit: the member holding the most memory for its share
    leaves (its counts kept, its states freed) while another still searches."""

    def __init__(self, limits: Limits | None):
        cap = None if limits is None else limits.max_rss_mb
        self.at = None if cap is None else cap * RETIRE_AT * 1024 * 1024  # bytes
        self.base = 0 if cap is None else limits_module.current_rss_bytes()  # the process before the members' states
        self.rate: float | None = None  # bytes a state of a member that does not say, once measured
        self.until = 0.0  # the members' bytes when the last one left: none leaves below
        self.counts = dict.fromkeys(COUNTS, 0)  # the retired members' counts
        self.summaries: dict[int, dict[str, Any]] = {}  # theirs for ``stats.members``, by when they joined
        self.sweep = False  # a member left since the last check: collect its cycles

    def relieve(
        self, crew: list[Member], live: list[Member], rss: int, observer: Observer | None, ahead: int = 0
    ) -> None:
        """At a limit check (``rss``: the memory it read; ``ahead``: what tables about to grow
        will claim), retire the member of the crew holding the most memory for its share, the
        last one searching excepted, if memory is short (the observer hears which first)."""
        if self.sweep:  # by now nothing refers to the last one retired
            gc.collect()
            self.sweep = False
        if self.at is None or rss + ahead < self.at:
            return
        heaviest, total = self.heaviest(crew, live, rss)
        if heaviest is None or total < self.until:
            return
        self.until = total
        self.retire(heaviest, crew, live, observer)

    def heaviest(self, crew: list[Member], live: list[Member], rss: int) -> tuple[Member | None, float]:
        """The member of the crew holding the most memory for its share, the last one
        searching excepted (None: no other), and the memory the crew holds."""
        said = [getattr(x.search, "memory_bytes", None) for x in crew]
        if self.rate is None:  # the first time memory is short: what the others' states take
            unsaid = sum(int(x.search.stored) for x, b in zip(crew, said) if b is None)
            rest = rss - self.base - sum(b for b in said if b is not None)
            self.rate = max(rest, 0) / unsaid if unsaid else 0.0
        held = [float(b) if b is not None else x.search.stored * self.rate for x, b in zip(crew, said)]
        keep = live[0] if len(live) == 1 else None
        candidates = [(h / x.share, i) for i, (x, h) in enumerate(zip(crew, held)) if x is not keep]
        if not candidates:
            return None, sum(held)
        return crew[max(candidates, key=lambda c: c[0])[1]], sum(held)  # the first of equals

    def make_room(
        self, run: Run, stored: int, crew: list[Member], live: list[Member], observer: Observer | None
    ) -> bool:
        """When the memory limit stopped the portfolio while several members search, with the
        memory read still below the limit (`Guard.check` counted ahead a table about to grow,
        or what the members stored since the last check, ``drift``): a member retires
        instead, and True (search on).  For a table's step, the member whose tables claim
        the most; else the one holding the most memory for its share, as `relieve` picks
        (one interval's growth can carry the memory from below `RETIRE_AT` to the limit)."""
        guard = run.guard
        if run.reason != "memory" or guard.max_rss is None or guard.rss >= guard.max_rss or len(live) < 2:
            return False
        if guard.max_stored is not None and stored >= guard.max_stored:
            return False
        if guard.rss + guard.drift < guard.max_rss:  # a table's step tips it
            old: Member | None = max(live, key=lambda x: growth_ahead((x.search,), run.within))
        else:
            old = self.heaviest(crew, live, guard.rss)[0]
        if old is None:
            return False
        self.retire(old, crew, live, observer)
        run.reason = None
        return True

    def retire(self, old: Member, crew: list[Member], live: list[Member], observer: Observer | None) -> None:
        """``old`` leaves: its counts kept, its states freed."""
        if observer is not None:
            observer.note(f"memory short: {old.label} retired ({old.search.stored:,} states)")
        for name in COUNTS:
            self.counts[name] += getattr(old.search, name)
        self.summaries[old.order] = old.summary(retired=True)
        crew.remove(old)
        if old in live:
            live.remove(old)
        self.sweep = True

    def total(self, crew: list[Member], name: str) -> int:
        """The count ``name`` (of `COUNTS`) of the crew and the members retired."""
        return self.counts[name] + sum(int(getattr(x.search, name)) for x in crew)


def leader(live: list[Member]) -> Member | None:
    """The member `LEAD_MARGIN` or more ahead of every other that reports its progress."""
    ranked = sorted(((p, i) for i, x in enumerate(live) if (p := x.progress()) is not None), reverse=True)
    if len(ranked) < 2 or ranked[0][0] < ranked[1][0] + LEAD_MARGIN:
        return None
    return live[ranked[0][1]]


MemberSpec = tuple[str, str, str, float, float, float]  # direction, order, name, join, leave, share


def parse_members(spec: str) -> list[MemberSpec]:
    """``(direction, order, name, join, leave, share)`` for each comma-separated member
    (``join``: the CPU seconds of the portfolio before it starts, from ``@T``, 0 without;
    ``leave``: those after which it stops, from ``<U``, infinity without; ``share``: its
    share of the time, from ``*W``, 1 without)."""
    out = []
    for item in (s.strip() for s in str(spec).split(",")):
        if not item:
            continue
        item, star, weight = item.partition("*")
        share = _number(weight, item, "*W", "its share of the time", positive=True) if star else 1.0
        item, lt, until = item.partition("<")
        item, at, when = item.partition("@")
        join = _number(when, item, "@T", "the CPU seconds before it joins") if at else 0.0
        leave = _number(until, item, "<U", "the CPU seconds after which it stops") if lt else INF
        if leave <= join:
            raise InputError(f"{item}@{join:g}<{leave:g} would stop before it starts")
        head, _, rest = item.partition(":")
        if head == BACKWARD:
            out.append((BACKWARD, "greedy", rest, join, leave, share))
        elif head == SEARCH and rest:
            out.append((SEARCH, "", rest, join, leave, share))
        elif head in ORDERS:
            out.append(("forward", head, rest, join, leave, share))
        elif not rest:
            out.append(("forward", "greedy", head, join, leave, share))
        else:
            raise InputError(
                f"unknown search {item!r} (ORDER[:HEURISTIC] with ORDER one of {', '.join(ORDERS)},"
                f" a heuristic name, {BACKWARD}[:VARIANT] or {SEARCH}:NAME)"
            )
    if not out:
        raise InputError("a portfolio needs searches: -P members=SEARCH,SEARCH")
    return out


def _number(text: str, item: str, form: str, meaning: str, positive: bool = False) -> float:
    """The number of a member's suffix ``form`` (``@T``, ``<U``, ``*W``): finite and >= 0, or
    > 0 when ``positive``."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not (0 < value if positive else 0 <= value) or value >= INF:
        bound = "> 0" if positive else ">= 0"
        raise InputError(f"{item}{form} needs {form[1:]}, {meaning}: a number {bound} (got {text!r})")
    return value


def parse_shares(shares: str, specs: list[MemberSpec]) -> list[float]:
    """Each member's share of the time: ``shares`` (one per member) when given, else the
    members' own (``*W``)."""
    count = len(specs)
    if not str(shares).strip():
        return [spec[5] for spec in specs]
    try:
        weights = [float(s) for s in str(shares).split(",")]
    except ValueError:
        weights = []
    if len(weights) != count or not all(w > 0 and w != float("inf") for w in weights):
        raise InputError(
            f"shares must be {count} positive number{'s' if count > 1 else ''}, one per search (got {shares!r})"
        )
    return weights


def describe_members(spec: str, phrases: Mapping[str, str] | None = None) -> str:
    """The members of ``spec`` in words, grouped by when they join: what ``searchkit engines``
    says of a portfolio, made from the string that decides it so the two cannot drift apart.
    ``phrases``: a domain's words for its member names (``fess-aim``: "FESS aimed at ..."; for
    a forward member's guide, the words after its order: ``nearest-goal``: "nearest-goal forwards")."""
    words = phrases or {}
    groups: dict[float, list[str]] = {}
    for direction, order, name, join, leave, share in parse_members(spec):
        if direction == SEARCH:
            text = words.get(name, f"search {name}")
        elif direction == BACKWARD:
            text = words.get(name, f"greedy backwards{f' on {name}' if name else ''}")
        else:  # the order stays in the words: astar on a guide is not greedy on it
            text = f"{order} {words[name]}" if name in words else f"{order}{f' on {name}' if name else ''}"
        if leave < INF:
            text += f" till {leave:g} s"
        if share != 1:
            text += f" ({share:g} shares)"
        groups.setdefault(join, []).append(text)
    return "; ".join(
        (f"from {join:g} s: " if join else "") + ", ".join(items) for join, items in sorted(groups.items())
    )


def check_portfolio(params: dict[str, Any]) -> None:
    """The members and shares make sense together (`InputError` otherwise)."""
    parse_shares(params.get("shares", ""), parse_members(params.get("members", "")))


def check_member_names(problem: Any, specs: list[MemberSpec]) -> None:
    """Refuse a member whose name the problem does not know, before any search starts (a
    member joining later would otherwise fail only when its time comes).  Problems list
    the names they take in ``variant_names`` and ``search_names``; without them a name is
    checked when its member is made."""
    for direction, _order, name, _join, _leave, _share in specs:
        if not name:
            continue
        what = "search" if direction == SEARCH else "heuristic or variant"
        try:
            known = problem.search_names if direction == SEARCH else problem.variant_names
        except AttributeError:
            continue
        if name not in known:
            raise InputError(f"unknown {what} {name!r} in the portfolio (known: {', '.join(known) or 'none'})")


def _member_problem(problem: Any, name: str) -> Any:
    if not name:
        return problem
    variant = getattr(problem, "variant", None)
    if not callable(variant):
        raise InputError(f"portfolio member {name!r} needs a problem offering variant(name); this one does not")
    return variant(name)


def make_member(problem: Any, member: MemberSpec, share: float, observer: Observer | None = None) -> Member | None:
    """The member's search, or None when its problem cannot run it."""
    direction, order, name, _join, leave, _share = member
    kind = order if direction == "forward" else direction
    label = f"{kind}:{name}" if name else kind
    if direction == SEARCH:
        make = getattr(problem, "member_search", None)
        if not callable(make):
            raise InputError(
                f"portfolio member {label!r} needs a problem offering member_search(name); this one does not"
            )
        own = make(name, observer)
        if own is None:
            return None
        return Member(own, lambda s: s.path(), share, label, bool(getattr(own, "backward", False)), leave)
    p = _member_problem(problem, name)
    if p is None:
        return None
    if direction == BACKWARD:
        if not can_search_backward(p):
            raise InputError("a backward member needs goal_states() and predecessors(), which this problem lacks")
        search = backward_search(p, order="greedy", name=BACKWARD, observer=observer)
        return Member(search, forward_path, share, label, backward=True, leave=leave)
    if order != "dijkstra" and heuristic_of(p) is None:
        raise InputError(f"portfolio member {order}{':' + name if name else ''} needs a heuristic")
    weights: dict[str, Any] = {
        "greedy": {"g_weight": 0, "reopen": False, "goal_on_generation": True},
        "astar": {},
        "dijkstra": {"h_weight": 0},
    }[order]
    search = BestFirstSearch(p, name=order, observer=observer, **weights)
    return Member(search, BestFirstSearch.path, share, label, leave=leave)


def portfolio(
    problem: Any,
    *,
    members: str = "",
    shares: str = "",
    solo: float = 0.0,
    meet: bool = False,
    lead: float = 1.0,
    limits: Limits | None = None,
    observer: Observer | None = None,
) -> Result:
    """The searches in ``members`` (comma list), the first alone for ``solo`` s, then by
    ``shares`` (``lead`` times its share for a member well ahead of the others, `leader`);
    with ``meet``, a forward and a backward one that reach one state answer together."""
    specs = parse_members(members)
    weights = parse_shares(shares, specs)
    if not solo >= 0:
        raise InputError(f"solo must be a number of seconds >= 0 (got {solo!r})")
    if not lead >= 1:
        raise InputError(f"lead must be a number >= 1 (got {lead!r})")
    check_member_names(problem, specs)
    run = Run("portfolio", limits, observer)
    began_all = process_time()
    events = _EventsOnly(observer) if observer is not None else None
    first = make_member(problem, specs[0], weights[0], events)
    if first is None:
        raise InputError(f"the first search of the portfolio cannot run on this problem ({members})")
    if meet and first.can_meet():
        first.search.fresh = []
    crew = [first]  # every member made so far (but those retired)
    live = [first]  # those still searching
    run.tables = lambda: [x.search for x in live]  # a memory limit counts their tables' growth ahead
    del first  # the lists hold it: a retired member is freed
    # (the CPU seconds it joins at, its spec, its share), earliest last
    waiting = sorted(((max(solo, spec[3]), spec, share) for spec, share in zip(specs[1:], weights[1:])), reverse=True)
    retirement = Retirement(limits)
    status, winner = None, None
    path, answered_by = None, ""
    expanded = generated = stored = max_frontier = 0
    while status is None:
        used = process_time() - began_all
        if len(live) > 1 and any(x.leave <= used for x in live):  # its time is up (never the last)
            live = [x for x in live if x.leave > used] or live[-1:]
        while waiting and (waiting[-1][0] <= used or not live):
            _at, spec, share = waiting.pop()
            began = perf_counter()
            m = make_member(problem, spec, share, events)
            if m is None:
                continue
            # joins level with its share, not behind (its set-up counts as its time)
            level = min((x.spent / x.share for x in live), default=0.0)
            m.spent = level * share + perf_counter() - began
            if meet and m.can_meet():
                m.search.fresh = []
            m.order = len(crew) + len(retirement.summaries)
            crew.append(m)
            live.append(m)
            run.next_check = expanded  # a set-up can be long (a big level): look at the clock now
        if not live:  # every search ran out, none of them a proof
            status = LIMIT
            run.reason = INCOMPLETE
            break
        if expanded >= run.next_check:
            if run.limit_reached(expanded, generated, stored):
                if not retirement.make_room(run, stored, crew, live, observer):
                    status = LIMIT
                    break
            else:
                retirement.relieve(crew, live, run.guard.rss, observer, run.guard.ahead)
        ahead = leader(live) if lead > 1 else None
        m = min(live, key=lambda x: x.spent / (x.share * (lead if x is ahead else 1.0)))  # most behind its share
        left = run.guard.left()  # seconds to the deadline
        most = min(BATCH, run.next_check - expanded)  # never past the next check
        if m.take_turn(m.turn(most, left)) >= TURN_SECONDS or (left is not None and left < TURN_SECONDS):
            run.next_check = expanded  # a long turn or the deadline near: the clock now, not when the counts come
        met = _meeting(m, crew) if meet and m.search.status != SOLVED else None
        if m.search.status == SOLVED:
            status, winner = SOLVED, m
        elif met is not None:
            status = SOLVED
            path = joined(met[0].search, met[1].search, met[2])
            answered_by = f"{met[0].label}+{met[1].label}"
        elif m.search.done:
            if m.proves_unsolvable():
                status = NO_SOLUTION
            else:
                live.remove(m)
        expanded = retirement.total(crew, "expanded")
        generated = retirement.total(crew, "generated")
        stored = sum(x.search.stored for x in crew)
        max_frontier = max(max_frontier, sum(x.search.frontier for x in crew))
    if winner is not None:
        path, answered_by = winner.path_of(winner.search), winner.label
    result = run.result(
        status,
        path,
        expanded=expanded,
        generated=generated,
        duplicates=retirement.total(crew, "duplicates"),
        reopened=retirement.total(crew, "reopened"),
        max_frontier=max_frontier,
        stored=stored,
    )
    if status == SOLVED:
        result.stats.answered_by = answered_by
    done = retirement.summaries | {x.order: x.summary() for x in crew}
    result.stats.members = [done[k] for k in sorted(done)]
    return result


def _meeting(m: Member, crew: list[Member]) -> tuple[Member, Member, Any] | None:
    """``(forward, backward, state)`` when a state ``m`` has just stored is known to a member
    searching the other way; empties ``m``'s list of fresh states."""
    fresh = getattr(m.search, "fresh", None)
    if not fresh:
        return None
    m.search.fresh = []
    others = [x for x in crew if x.backward != m.backward and x.can_meet()]
    for x in others:
        state = first_known(x.search, fresh)
        if state is not None:
            return (x, m, state) if m.backward else (m, x, state)
    return None


def first_known(search: Any, states: list[Any]) -> Any:
    """The first of ``states`` that ``search`` has reached, or None: by its ``knows_any``
    (the index of the first, or -1) when it has one - a search in compiled code answers a
    list in one call, where a call per state costs more than its lookup - else by ``knows``."""
    many = getattr(search, "knows_any", None)
    if many is not None:
        i = many(states)
        return states[i] if i >= 0 else None
    knows = search.knows
    return next((state for state in states if knows(state)), None)
