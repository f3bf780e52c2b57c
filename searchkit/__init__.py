"""searchkit: interchangeable search engines over a small `Problem` protocol, with plugins."""

from .atomic import atomic_path, write_atomic
from .compiled import NO_NUMBA_ENV, integer_weights, jit, numba_available
from .domain import Domain, GridView, Heuristic, Instance, Param
from .engines import (
    BestFirstSearch,
    EngineInfo,
    EngineParam,
    FeatureSearch,
    FessSearch,
    Run,
    alternation,
    astar,
    backward,
    best_first,
    bfs,
    bidirectional_bfs,
    dfs,
    dijkstra,
    feature_advice,
    fess,
    greedy,
    idastar,
    iddfs,
    portfolio,
)
from .engines.backward import Reversed, backward_search, forward_path
from .engines.bucketqueue import BucketQueue
from .engines.paths import path_from_links, path_from_parents
from .engines.portfolio import check_portfolio, describe_members
from .errors import InputError
from .hookspecs import hookimpl
from .kernels.rules import CompiledRules
from .kernels.search import compiled_idastar
from .kernels.search import warm_up as warm_up_compiled
from .limits import Limits
from .observer import Observer
from .problem import GraphProblem, Problem
from .result import INCOMPLETE, LIMIT, NO_SOLUTION, SOLVED, Result, Stats
from .solving import make_problem, solve
from .tables import attribute_growth, growth_ahead
from .verify import replay

__version__ = "0.2.0"

__all__ = [
    "BestFirstSearch",
    "BucketQueue",
    "CompiledRules",
    "Domain",
    "EngineInfo",
    "EngineParam",
    "FeatureSearch",
    "FessSearch",
    "GraphProblem",
    "GridView",
    "Heuristic",
    "INCOMPLETE",
    "InputError",
    "Instance",
    "LIMIT",
    "Limits",
    "NO_NUMBA_ENV",
    "NO_SOLUTION",
    "Observer",
    "Param",
    "Problem",
    "Result",
    "Reversed",
    "Run",
    "SOLVED",
    "Stats",
    "alternation",
    "astar",
    "atomic_path",
    "attribute_growth",
    "backward",
    "backward_search",
    "best_first",
    "bfs",
    "bidirectional_bfs",
    "check_portfolio",
    "compiled_idastar",
    "describe_members",
    "dfs",
    "feature_advice",
    "fess",
    "dijkstra",
    "forward_path",
    "greedy",
    "growth_ahead",
    "hookimpl",
    "idastar",
    "jit",
    "iddfs",
    "integer_weights",
    "make_problem",
    "numba_available",
    "path_from_links",
    "path_from_parents",
    "portfolio",
    "replay",
    "solve",
    "warm_up_compiled",
    "write_atomic",
]
