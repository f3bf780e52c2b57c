"""Benchmark suites: load a suite TOML, run it in worker processes, report and compare.

The typer command lives in `searchkit.bench.command` (imported by the CLI only), so that
importing this package pulls in neither typer nor rich.
"""

from .baseline import BASELINES, plain_astar, prepare_job, textbook_astar
from .executors import Executor, LocalExecutor, make_executor
from .runner import Outcome, read_records, run_suite
from .suite import BenchLimits, Config, Suite, load_suite, parse_select

__all__ = [
    "BASELINES",
    "BenchLimits",
    "Config",
    "Executor",
    "LocalExecutor",
    "Outcome",
    "Suite",
    "load_suite",
    "make_executor",
    "parse_select",
    "plain_astar",
    "textbook_astar",
    "prepare_job",
    "read_records",
    "run_suite",
]
