"""searchkit: interchangeable search engines over a small `Problem` protocol, with plugins."""

from .atomic import atomic_path, write_atomic
from .domain import Domain, Heuristic, Instance, Param
from .engines import EngineInfo, EngineParam, astar, best_first, bfs, bidirectional_bfs, dfs, dijkstra, greedy, iddfs, idastar
from .engines.paths import path_from_links
from .errors import InputError
from .hookspecs import hookimpl
from .limits import Limits
from .observer import Observer
from .problem import GraphProblem, Problem
from .result import INCOMPLETE, LIMIT, NO_SOLUTION, SOLVED, Result, Stats
from .solving import make_problem, solve
from .verify import replay

__version__ = "0.1.0"

__all__ = [
    "Domain",
    "EngineInfo",
    "EngineParam",
    "GraphProblem",
    "Heuristic",
    "INCOMPLETE",
    "InputError",
    "Instance",
    "LIMIT",
    "Limits",
    "NO_SOLUTION",
    "Observer",
    "Param",
    "Problem",
    "Result",
    "SOLVED",
    "Stats",
    "astar",
    "atomic_path",
    "best_first",
    "bfs",
    "bidirectional_bfs",
    "dfs",
    "dijkstra",
    "greedy",
    "hookimpl",
    "iddfs",
    "make_problem",
    "path_from_links",
    "idastar",
    "replay",
    "solve",
    "write_atomic",
]
