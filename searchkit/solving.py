"""From names to a verified result with true labels: the path the CLI, the benchmarks and
library callers share."""

from __future__ import annotations

import time
import typing
from dataclasses import dataclass, field, replace
from typing import Any

from .collector import searching
from .domain import Domain, Heuristic
from .engines import UNKNOWN, EngineInfo, problem_caveat
from .engines.paths import CHECK_HINT, check_hint
from .errors import InputError, PluginError
from .limits import Limits
from .observer import Observer
from .plugins import domains, get_domain, get_engine
from .problem import Problem, heuristic_of, preserves_optimality, preserves_solutions
from .result import INCOMPLETE, LIMIT, NO_SOLUTION, SOLVED, Result

NO_HEURISTIC = "none"
DOMAIN_TAG = "searchkit_domain"  # the attribute naming the domain that built a problem


@dataclass
class Job:
    """A fully resolved request: which domain, problem, engine and heuristic."""

    domain: Domain
    options: dict[str, Any]
    engine: EngineInfo
    heuristic: Heuristic | None
    params: dict[str, Any] = field(default_factory=dict)
    problem: Any = None  # the domain's Problem (any class with the protocol's members)

    @property
    def admissible(self) -> bool:
        return self.heuristic is None or self.heuristic.admissible

    @property
    def guarantee(self) -> str:
        """What an answer of this run promises, before it runs."""
        return self.engine.guarantee(self.params, self.admissible, self.problem)

    def guarantee_of(self, result: Result) -> str | None:
        """What ``result`` promises: None when it holds no answer (nothing to promise about),
        else its own guarantee (`settle`) or the run's."""
        return (result.guarantee or self.guarantee) if result.status == SOLVED else None


def resolve_engine(
    dom: Domain, full: dict[str, Any], engine: str | None, params: dict[str, Any] | None
) -> tuple[EngineInfo, dict[str, Any], str | None]:
    """The engine, its checked parameters and the default heuristic, before any problem is
    built (so a bad name or value costs nothing)."""
    default_engine, default_h, default_params = dom.defaults(full)
    info = get_engine(engine or default_engine)
    why = info.refusal(dom.name)
    if why:
        raise InputError(why)
    merged = dict(default_params if engine is None else {}, **(params or {}))
    return info, info.check_params(merged), default_h


def prepare(
    domain: str | Domain,
    options: dict[str, Any],
    engine: str | None = None,
    heuristic: str | None = None,
    params: dict[str, Any] | None = None,
) -> Job:
    """Resolve names, check they fit together and build the problem (raises InputError).

    Everything that needs no problem (engine, parameters, heuristic name) is checked
    first: building a problem can be expensive (a pattern database)."""
    dom = get_domain(domain) if isinstance(domain, str) else domain
    full = {p.name: p.default for p in dom.params}
    full.update({k: v for k, v in options.items() if v is not None or k not in full})
    info, params, default_h = resolve_engine(dom, full, engine, params)

    if heuristic is None:  # the default's (none where the domain's default engine takes none)
        heuristic = default_h if info.heuristic != "ignored" and default_h is not None else NO_HEURISTIC
    h: Heuristic | None = None
    if heuristic != NO_HEURISTIC:
        if heuristic not in dom.heuristics:
            known = ", ".join(dom.heuristics) or "none"
            raise InputError(f"unknown heuristic {heuristic!r} for {dom.name} (known: {known}, or 'none')")
        h = dom.heuristics[heuristic]
    if info.heuristic == "required" and h is None:
        raise InputError(f"engine {info.name!r} needs a heuristic (e.g. --heuristic {next(iter(dom.heuristics), '?')})")
    if info.heuristic == "ignored":
        h = None
    problem = built_by(with_variants(dom.make_problem(full, h), dom, full), dom)
    lacking = info.lacks(problem)
    if lacking:
        raise InputError(f"engine {info.name!r} needs {lacking}, which {dom.name} does not offer")
    return Job(dom, full, info, h, params, problem)


def make_problem(domain: str | Domain, heuristic: str | None = None, **options: Any) -> Problem[Any, Any]:
    """A domain's problem from Python, its options as keyword arguments (the command line's
    names with underscores: ``make_problem("npuzzle", board="8 6 7 2 5 4 3 0 1")``).

    ``heuristic`` names one of the domain's heuristics (default: the domain's default,
    ``"none"`` for none).  The problem says whether its heuristic is admissible
    (``heuristic_admissible``), so `solve` labels its answers as the command line does."""
    dom = get_domain(domain) if isinstance(domain, str) else domain
    known = {p.name for p in dom.params}
    unknown = sorted(set(options) - known)
    if unknown:
        raise InputError(f"domain {dom.name!r} has no option {', '.join(unknown)} (it has: {', '.join(sorted(known))})")
    full = {p.name: p.default for p in dom.params}
    full.update(options)
    if heuristic is None:
        heuristic = dom.defaults(full)[1] or NO_HEURISTIC
    h = None
    if heuristic != NO_HEURISTIC:
        if heuristic not in dom.heuristics:
            raise InputError(f"unknown heuristic {heuristic!r} for {dom.name} (known: {', '.join(dom.heuristics)})")
        h = dom.heuristics[heuristic]
    problem = built_by(with_variants(dom.make_problem(full, h), dom, full), dom)
    if h is not None and heuristic_of(problem) is not None:
        problem.heuristic_admissible = h.admissible
    return problem  # type: ignore[no-any-return]  # a Problem by the domain's contract


def built_by(problem: Any, dom: Domain) -> Any:
    """``problem`` marked as built by ``dom`` (read by `domain_of`), where it takes attributes."""
    try:
        setattr(problem, DOMAIN_TAG, dom.name)
    except AttributeError:  # __slots__: `domain_of` finds its domain by its class, if it can
        pass
    return problem


def domain_of(problem: Any) -> str | None:
    """The name of the domain ``problem`` belongs to: the one that built it (`make_problem`,
    `prepare`), else the installed domain whose declared problem class (``Domain[P]``) it is
    an instance of, else None (a problem of the caller's own)."""
    name = getattr(problem, DOMAIN_TAG, None)
    if isinstance(name, str):
        return name
    for dom in domains().values():
        for base in getattr(type(dom), "__orig_bases__", ()):
            for kind in typing.get_args(base):
                try:
                    if kind is not object and isinstance(kind, type) and isinstance(problem, kind):
                        return dom.name
                except TypeError:  # a protocol or alias isinstance cannot test
                    continue
    return None


def with_variants(problem: Any, dom: Domain, options: dict[str, Any]) -> Any:
    """``problem`` with a ``variant(heuristic)`` method (the same instance guided by another
    of the domain's heuristics), which composite engines use, unless it has its own."""
    if callable(getattr(problem, "variant", None)):
        return problem

    def variant(name: str) -> Any:
        if name not in dom.heuristics:
            raise InputError(f"unknown heuristic {name!r} for {dom.name} (known: {', '.join(dom.heuristics)})")
        other: Any = dom.make_problem(options, dom.heuristics[name])  # domains set labels on it
        if heuristic_of(other) is not None:
            other.heuristic_admissible = dom.heuristics[name].admissible
        return other

    try:
        problem.variant = variant
        problem.variant_names = tuple(dom.heuristics)  # what `variant` takes (checked up front)
    except AttributeError:  # a problem with __slots__ and no variant: composite engines refuse it
        pass
    return problem


def settle(result: Result, info: EngineInfo, params: dict[str, Any], admissible: Any, problem: Any) -> Result:
    """Make the result's labels true: its ``guarantee`` is what engine, heuristic and problem
    together promise, and ``no-solution`` stands only when the search that ran out was
    complete for the problem (otherwise it is a ``limit`` with reason ``incomplete``).  A
    result without an answer promises nothing: its ``guarantee`` is None."""
    result.engine = result.engine or info.name
    if result.status != SOLVED:
        result.guarantee = None
    elif result.guarantee is None:
        result.guarantee = info.guarantee(params, admissible, problem)
    elif result.bound is not None and (admissible is not True or not preserves_optimality(problem)):
        # a bound proven with a heuristic that may overestimate, or on moves that skip
        # optimal paths, proves nothing about the problem's optimum (kept, qualified, when
        # the caller cannot say whether the heuristic is admissible)
        if admissible is UNKNOWN and preserves_optimality(problem):
            result.guarantee = f"{result.guarantee} if the heuristic is admissible"
        else:
            result.bound = None
            result.guarantee = info.guarantee(params, admissible, problem)
    elif result.guarantee.startswith("optimal") and not preserves_optimality(problem):
        result.guarantee = problem_caveat(problem)
    if result.status == NO_SOLUTION and not (info.complete and preserves_solutions(problem)):
        result.status = LIMIT
        result.stats.limit_reason = INCOMPLETE
    return result


def execute(job: Job, limits: Limits | None = None, observer: Observer | None = None, improve: bool = True) -> Result:
    """Run the job's engine, replay any solution it returns, let the domain improve it (replayed
    again; not with ``improve=False``, e.g. for a drawing of the search) and hand it back.

    ``stats.elapsed_s`` is the search's time; the domain's improvement pass is counted apart
    in ``stats.improve_s``.  A `PluginError` from the search names the domain."""
    with searching():
        try:
            return _execute(job, limits, observer, improve)
        except PluginError as e:
            name = job.domain.name
            raise PluginError(f"domain {name!r}: {e}".replace(CHECK_HINT, check_hint(name))) from e


def _execute(job: Job, limits: Limits | None, observer: Observer | None, improve: bool) -> Result:
    result = job.engine.run(job.problem, limits=limits, observer=observer, **job.params)
    result.engine = job.engine.name
    settle(result, job.engine, job.params, job.admissible, job.problem)
    if result.status == SOLVED:
        job.domain.replay(job.problem, result)
    if result.status == SOLVED and improve:
        left = None if limits is None or limits.timeout_s is None else limits.timeout_s - result.stats.elapsed_s
        began = time.perf_counter()
        improved = job.domain.improve(
            job.problem, result, job.options, left, None if limits is None else limits.interrupt
        )
        if improved is not result:
            job.domain.replay(job.problem, improved)
            seconds = time.perf_counter() - began
            improved.stats = replace(improved.stats, elapsed_s=result.stats.elapsed_s, improve_s=seconds)
            result = improved
    return result


def solve(
    problem: Problem[Any, Any],
    engine: str = "astar",
    limits: Limits | None = None,
    observer: Observer | None = None,
    **params: Any,
) -> Result:
    """Search ``problem`` with the engine called ``engine``: the library entry point.

    The result's ``guarantee`` is filled in as on the command line; a heuristic counts as
    admissible when the problem says so (``heuristic_admissible = True``), otherwise the
    guarantee says "optimal if the heuristic is admissible".  An engine made for other domains
    than the problem's (`domain_of`) is refused with an `InputError`, as on the command line."""
    info = get_engine(engine)
    why = info.refusal(domain_of(problem))
    if why:
        raise InputError(why)
    params = info.check_params(params)
    lacking = info.lacks(problem)
    if lacking:
        raise InputError(f"engine {info.name!r} needs {lacking}, which this problem does not offer")
    has_h = heuristic_of(problem) is not None
    admissible = True if not has_h or getattr(problem, "heuristic_admissible", False) else UNKNOWN
    with searching():
        result = info.run(problem, limits=limits, observer=observer, **params)
    return settle(result, info, params, admissible, problem)
