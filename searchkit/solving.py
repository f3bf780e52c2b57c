"""From names to a verified result: the path the CLI and the benchmarks share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .domain import Domain, Heuristic
from .engines import EngineInfo
from .errors import InputError
from .limits import Limits
from .observer import Observer
from .plugins import get_domain, get_engine
from .problem import Problem, can_search_backward
from .result import SOLVED, Result

NO_HEURISTIC = "none"


@dataclass
class Job:
    """A fully resolved request: which domain, problem, engine and heuristic."""

    domain: Domain
    options: dict[str, Any]
    engine: EngineInfo
    heuristic: Heuristic | None
    params: dict[str, Any] = field(default_factory=dict)
    problem: Problem | None = None

    @property
    def guarantee(self) -> str:
        admissible = self.heuristic is None or self.heuristic.admissible
        return self.engine.guarantee(self.params, admissible)


def prepare(
    domain: str | Domain,
    options: dict[str, Any],
    engine: str | None = None,
    heuristic: str | None = None,
    params: dict[str, Any] | None = None,
) -> Job:
    """Resolve names, check they fit together and build the problem (raises InputError)."""
    dom = get_domain(domain) if isinstance(domain, str) else domain
    full = {p.name: p.default for p in dom.params}
    full.update({k: v for k, v in options.items() if v is not None or k not in full})
    default_engine, default_h, default_params = dom.defaults(full)
    info = get_engine(engine or default_engine)
    params = dict(default_params if engine is None else {}, **(params or {}))
    unknown = set(params) - set(info.params)
    if unknown:
        raise InputError(f"engine {info.name!r} takes no parameter {', '.join(sorted(unknown))}")
    if "weight" in params and not params["weight"] >= 1:  # also refuses NaN
        raise InputError(f"--weight must be at least 1 (got {params['weight']})")

    if heuristic is None:
        heuristic = default_h if info.heuristic != "ignored" else NO_HEURISTIC
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
    problem = dom.make_problem(full, h)
    if info.backward and not can_search_backward(problem):
        raise InputError(f"engine {info.name!r} needs goal states and predecessors, which {dom.name} does not offer")
    return Job(dom, full, info, h, params, problem)


def execute(job: Job, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """Run the job's engine and replay any solution it returns before handing it back."""
    result = job.engine.run(job.problem, limits=limits, observer=observer, **job.params)
    result.engine = job.engine.name
    if result.status == SOLVED:
        job.domain.replay(job.problem, result)
    return result


def solve(problem: Problem, engine: str = "astar", limits: Limits | None = None,
          observer: Observer | None = None, **params: Any) -> Result:
    """Search ``problem`` with the engine called ``engine``: the library entry point."""
    return get_engine(engine).run(problem, limits=limits, observer=observer, **params)
