"""The ``searchkit`` command line (typer): parsing, printing and exit codes only.

Exit codes: 0 solved, 1 runtime failure, 2 bad input or usage, 3 no solution or a limit
reached, 130 interrupted.  Bad input is one ``Error:`` line on stderr, never a traceback
(set ``SEARCHKIT_DEBUG=1`` to see one); so is a plugin that breaks its contract (exit 1).
"""

from __future__ import annotations

import inspect
import json
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from .domain import Domain
from .errors import InputError, PluginError
from .limits import Limits
from .observer import Observer
from .result import INCOMPLETE, LIMIT, SOLVED, Result

if TYPE_CHECKING:
    from .render import TreeRecorder
    from .solving import Job

EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_UNSOLVED, EXIT_INTERRUPTED = 0, 1, 2, 3, 130

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    help="Heuristic search engines and puzzle domains: solve, compare, draw.",
)
solve_app = typer.Typer(no_args_is_help=True, help="Solve a problem of a domain: searchkit solve DOMAIN [OPTIONS].")
tree_app = typer.Typer(
    no_args_is_help=True, help="Draw or export the search tree of a run: searchkit tree DOMAIN -o FILE."
)
check_app = typer.Typer(
    no_args_is_help=True,
    help="Check a domain plugin against the Problem contract: searchkit check "
    "DOMAIN [OPTIONS] (without options, on the domain's own small instances).",
)
app.add_typer(solve_app, name="solve")
app.add_typer(tree_app, name="tree")
app.add_typer(check_app, name="check")


def _print_version(wanted: bool) -> None:
    """``--version``: the installed package's version on stdout, then exit 0."""
    if wanted:
        from importlib.metadata import version

        typer.echo(f"searchkit {version('searchkit')}")
        raise typer.Exit(EXIT_OK)


@app.callback()
def _options(
    _version: Annotated[
        bool,
        typer.Option("--version", "-V", callback=_print_version, is_eager=True, help="print the version and exit"),
    ] = False,
) -> None:
    """The options that come before a command (``searchkit --version``)."""


# -- progress ------------------------------------------------------------------------------
class Progress(Observer):
    """A live line on stderr: nodes expanded, rate, the best f so far, the engine's own word
    on its progress and the time (rich), fitted to the terminal's width."""

    def __init__(self, label: str):
        from rich.console import Console

        self.console = Console(stderr=True)
        self.status = self.console.status(f"{label}: starting")
        self.label = label
        self.start = time.perf_counter()
        self.last = 0.0
        self.answer = ""  # an anytime engine's incumbent cost and proven bound
        self.noted = ""  # an engine's own word on its progress (`Observer.note`)

    def __enter__(self) -> Progress:
        self.status.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.status.__exit__(*exc)

    def progress(self, expanded: int, generated: int, best_f: float | None) -> None:
        now = time.perf_counter()
        if now - self.last < 0.1:
            return
        self.last = now
        rate = expanded / max(now - self.start, 1e-9)
        fields = [
            (f"{expanded:,} expanded", 0),
            (f"{generated:,} generated", 2),
            (f"{rate:,.0f}/s", 1),
            (f"f {best_f:g}" if best_f is not None else "", 0),
            (self.noted, 0),
            (self.answer, 0),
            (f"{now - self.start:.1f} s", 0),
        ]
        self.status.update(progress_line(self.label, fields, self.console.width - 2))  # 2: the spinner

    def note(self, text: str) -> None:
        self.noted = text

    def improved(self, cost: float | None, bound: float) -> None:
        self.answer = f"best {'-' if cost is None else f'{cost:g}'} · bound {bound:g}"


def progress_line(label: str, fields: list[tuple[str, int]], width: int) -> str:
    """``label: field · field ...`` in at most ``width`` characters where it can be: the fields
    of the highest ``drop`` rank (0: always kept) left out first, so on a narrow terminal the
    engine's own word (a Sokoban search's best packing) and the time are what stay, not the
    counts of generated nodes."""
    kept = [(text, drop) for text, drop in fields if text]
    while True:
        line = f"{label}: " + " · ".join(text for text, _ in kept)
        worst = max((drop for _, drop in kept), default=0)
        if len(line) <= width or worst == 0:
            return line
        kept = [(text, drop) for text, drop in kept if drop != worst]


class _Interrupt:
    """While active, the first Ctrl-C asks the search to stop (it returns ``limit``)."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.previous: Any = None

    def _handle(self, signum: int, frame: Any) -> None:
        self.limits.interrupt.set()
        signal.signal(signal.SIGINT, self.previous)  # a second Ctrl-C stops at once

    def __enter__(self) -> _Interrupt:
        try:
            self.previous = signal.signal(signal.SIGINT, self._handle)
        except ValueError:  # not the main thread (e.g. inside a test runner's thread)
            self.previous = None
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)


# -- the per-domain commands ------------------------------------------------------------------
COMMON = [
    ("engine", Optional[str], None, typer.Option("--engine", "-e", help="engine name (see `searchkit engines`)")),
    ("heuristic", Optional[str], None, typer.Option("--heuristic", "-H", help="heuristic name, or 'none'")),
    ("weight", Optional[float], None, typer.Option("--weight", "-w", help="weight of h for astar (> 1: weighted A*)")),
    ("depth", Optional[int], None, typer.Option("--depth", help="depth limit for dfs")),
    (
        "param",
        Optional[list[str]],
        None,
        typer.Option(
            "--param", "-P", metavar="KEY=VALUE", help="another engine parameter (repeatable; see `searchkit engines`)"
        ),
    ),
    ("max_nodes", Optional[int], None, typer.Option("--max-nodes", help="stop after this many expansions")),
    ("timeout", Optional[float], None, typer.Option("--timeout", help="stop after this many seconds")),
    ("max_states", Optional[int], None, typer.Option("--max-states", help="stop when this many states are stored")),
    (
        "max_memory",
        Optional[float],
        None,
        typer.Option(
            "--max-memory", help="stop when the process uses this many MB (from 80 %, a portfolio retires members)"
        ),
    ),
    ("json_output", bool, False, typer.Option("--json", help="print one JSON document on stdout")),
]
TREE_ONLY = [
    (
        "output",
        Path,
        ...,
        typer.Option("--output", "-o", help="file to write: .png .svg .pdf .graphml .gexf .dot .json"),
    ),
    ("tree_nodes", int, 2000, typer.Option("--max-nodes", help="record and draw at most this many tree nodes")),
    # here --max-nodes caps the tree, so the expansion limit takes another name
    (
        "max_nodes",
        Optional[int],
        None,
        typer.Option("--max-expanded", help="stop the search after this many expansions"),
    ),
]
CHECK_ONLY = [
    ("json_output", bool, False, typer.Option("--json", help="print the outcomes as JSON on stdout")),
]
SOLVE_ONLY = [
    ("tree", Optional[Path], None, typer.Option("--tree", help="also draw/export the search tree to this file")),
]


RESERVED_SHORT = {"-e", "-H", "-w", "-P", "-o", "-h"}  # searchkit's own short flags


def _domain_parameters(
    domain: Domain, taken: set[str], outputs: bool, optional_arguments: bool = False
) -> list[inspect.Parameter]:
    params = []
    for p in domain.params:
        if p.output and not outputs:
            continue
        if p.name in taken:
            raise ValueError(f"domain {domain.name!r}: option {p.name!r} clashes with a searchkit option")
        if p.short in RESERVED_SHORT:
            raise ValueError(f"domain {domain.name!r}: option {p.name!r} takes {p.short}, one of searchkit's own flags")
        flag = p.flag
        annotation: Any  # a type, or Optional[...] of one (typer reads these at run time)
        if p.argument:
            info = typer.Argument(help=p.help, show_default=False)
            if optional_arguments:
                default, annotation = p.default, Optional[p.type]
            else:
                default = inspect.Parameter.empty if p.default is None else p.default
                annotation = p.type
        else:
            decls = [flag] + ([p.short] if p.short else [])
            info = typer.Option(*decls, help=p.help)
            default = p.default
            annotation = p.type if p.default is not None or p.type is bool else Optional[p.type]
        params.append(
            inspect.Parameter(
                p.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=Annotated[annotation, info]
            )
        )
    return params


def _check_outputs_apart(domain: Domain, values: dict[str, Any], common: dict[str, Any]) -> None:
    """Two outputs of one run naming the same path (``--tree x.pdf --frames x.pdf``) are
    refused before the search: the second would overwrite or trip over the first."""
    named: dict[Path, str] = {}
    files = [(p.flag, values.get(p.name)) for p in domain.params if p.writes]
    for flag, value in [*files, ("--tree", common.get("tree"))]:
        if isinstance(value, (str, Path)) and str(value).strip():
            try:
                path = Path(value).expanduser().resolve()
            except (OSError, ValueError, RuntimeError):  # refused, in its own words, where it is written
                continue
            if path in named:
                raise InputError(f"{named[path]} and {flag} both name {value}: give each output its own path")
            named[path] = flag


def _check_not_empty(domain: Domain, values: dict[str, Any]) -> None:
    """An empty text value is bad input, not a missing one (``--board ""``)."""
    for p in domain.params:
        value = values.get(p.name)
        if p.type is not bool and isinstance(value, (str, Path)) and not str(value).strip():
            name = p.name if p.argument else p.flag
            raise InputError(f"{name} needs a value (got an empty one)")


def _command_for(
    domain: Domain, specs: list[Any], run: Callable[..., None], outputs: bool = True, optional_arguments: bool = False
) -> Callable[..., None]:
    """A typer command whose options are the domain's options plus ``specs`` (without the
    domain's output options when ``outputs`` is False).  Raises ValueError when the
    domain's options clash with searchkit's."""
    specs = list({spec[0]: spec for spec in specs}.values())  # a later spec overrides an earlier one
    names = {name for name, *_ in specs}

    def command(**kwargs: Any) -> None:
        common = {name: kwargs.pop(name) for name in names}
        _check_not_empty(domain, kwargs)
        _check_outputs_apart(domain, kwargs, common)
        run(domain, kwargs, **common)

    parameters = _domain_parameters(domain, names, outputs, optional_arguments)
    parameters += [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=Annotated[annotation, info])
        for name, annotation, default, info in specs
    ]
    parameters.sort(key=lambda p: p.default is not inspect.Parameter.empty)  # arguments first
    command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in parameters}
    command.__doc__ = f"{domain.summary}" if domain.summary else domain.name
    return command


def _limits(max_nodes: int | None, timeout: float | None, max_states: int | None, max_memory: float | None) -> Limits:
    try:
        return Limits(max_expanded=max_nodes, timeout_s=timeout, max_stored=max_states, max_rss_mb=max_memory)
    except ValueError as e:
        raise InputError(
            str(e)
            .replace("max_expanded", "--max-nodes")
            .replace("timeout_s", "--timeout")
            .replace("max_stored", "--max-states")
            .replace("max_rss_mb", "--max-memory")
        ) from None


def _prepare(
    domain: Domain,
    options: dict[Any, Any],
    engine: str | None,
    heuristic: str | None,
    weight: float | None,
    depth: int | None,
    param: list[str] | None = None,
) -> Job:
    """The job for these names; ``--param`` values stay text, parsed by the engine's own
    parameter description (so every value is checked before anything is built)."""
    from .solving import prepare

    params: dict[str, Any] = {}
    for item in param or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InputError(f"--param expects KEY=VALUE (got {item!r})")
        params[key.strip().replace("-", "_")] = value.strip()
    if weight is not None:
        params["weight"] = weight
    if depth is not None:
        params["depth"] = depth
    return prepare(domain, options, engine, heuristic, params)


def _search(job: Job, limits: Limits, json_output: bool, observer: Observer | None = None) -> Result:
    """Run the job (a live progress line on a terminal, unless ``json_output``); a compilation
    of the engine's numba code, which a first use pays, is announced on stderr as it starts."""
    from contextlib import nullcontext

    from .compiled import compile_notices
    from .observer import Observers
    from .solving import execute

    show = not json_output and sys.stderr.isatty()
    improve = observer is None  # a drawn search tree shows the path the search found
    from .kernels.rules import chosen_for

    # engines with one-off set-up are those with compiled code; any other may run over the problem's compiled rules
    compiled = job.engine.warm_up is not None or chosen_for(job.engine, job.params, job.problem, observer) is not None
    notices = compile_notices(lambda name: _tell_compiling(job, name)) if compiled else nullcontext()
    with _Interrupt(limits), notices as compiles:
        if show:
            with Progress(f"{job.engine.name}") as progress:
                result = execute(job, limits, Observers(progress, observer) if observer else progress, improve)
        else:
            result = execute(job, limits, observer, improve)
    if compiles is not None:
        result.stats.compile_s = min(compiles.seconds, result.stats.elapsed_s)
    return result


def _tell_compiling(job: Job, name: str) -> None:
    typer.echo(
        f"{job.engine.name}: compiling its numba code for a first use (from {name}; counted apart from the "
        "search's rate, cached on disk after; `searchkit warm-up` compiles ahead)",
        err=True,
    )


def _exit_code(result: Result) -> int:
    if result.status == SOLVED:
        return EXIT_OK
    if result.stats.limit_reason == "interrupted":
        return EXIT_INTERRUPTED
    return EXIT_UNSOLVED


def _result_json(job: Job, result: Result) -> dict[str, Any]:
    dom, problem = job.domain, job.problem
    doc = {
        "domain": dom.name,
        "status": result.status,
        "cost": result.cost,
        "actions": [a if isinstance(a, (str, int, float)) else str(a) for a in result.actions],
        "length": len(result.actions),
        "start": dom.state_json(problem, problem.initial_state()),
        "engine": job.engine.name,
        "compiled": result.compiled,
        "heuristic": job.heuristic.name if job.heuristic else None,
        "params": job.params,
        "guarantee": job.guarantee_of(result),
        "complete": job.engine.complete,
        "bound": result.bound,
        "improvements": [i.to_dict() for i in result.improvements],
        "stats": result.stats.to_dict(),
    }
    doc.update(dom.solution_json(problem, result, job.options))
    return doc


def _print_text(job: Job, result: Result, limits: Limits | None = None) -> None:
    """The start, the run's label (the parameters in effect under ``limits``; the guarantee
    only of an answer), the outcome and the stats (the search's time and rates, and the time
    the domain spent improving the answer after it)."""
    dom, problem, s = job.domain, job.problem, result.stats
    echo = typer.echo
    echo(dom.describe_start(problem))
    h = job.heuristic.name if job.heuristic else "none"
    shown = job.engine.in_effect(job.params, limits)
    params = "".join(f" · {k} {v:g}" if isinstance(v, float) else f" · {k} {v}" for k, v in shown.items())
    guarantee = job.guarantee_of(result)
    ran = " (compiled)" if result.compiled else ""
    echo(f"\nengine {job.engine.name}{ran} · heuristic {h}{params}" + (f" · {guarantee}" if guarantee else ""))
    if result.status == SOLVED:
        echo(f"solved: cost {result.cost:g}, {len(result.actions)} steps")
        if result.improvements:
            steps = ", ".join(f"{i.cost:g} at {i.elapsed_s:.2f} s" for i in result.improvements)
            stop = f"; stopped by {s.limit_reason}" if s.limit_reason else ""
            echo(f"answers: {steps}; lower bound {result.bound:g}{stop}")
        echo(dom.format_solution(problem, result, job.options))
    elif result.status == LIMIT and result.stats.limit_reason == INCOMPLETE:
        echo(
            "no solution found: the search ran out of states, but its macros or pruning may have cut "
            "solutions off, so the problem is not proven unsolvable"
        )
    elif result.status == LIMIT:
        echo(f"limit reached ({result.stats.limit_reason}): no solution found yet")
    else:
        echo("no solution: the whole reachable space was searched")
    rate = f"{s.expansions_per_s:,.0f}/s"
    echo(
        f"stats: {s.expanded:,} expanded · {s.generated:,} generated · {s.duplicates:,} duplicates · "
        f"{s.reopened:,} reopened · max frontier {s.max_frontier:,} · {s.stored:,} stored · "
        f"{s.elapsed_s:.3f} s search"
        + (f" (of which {s.compile_s:.3f} s compiling)" if s.compile_s else "")
        + f" · {rate}"
        + (f" · then {s.improve_s:.3f} s improving the answer" if s.improve_s else "")
        + (f" · {s.iterations} iterations" if s.iterations else "")
        + (f" · answered by {s.answered_by}" if s.answered_by else "")
    )
    if s.members:
        echo("members: " + "; ".join(_member_line(m) for m in s.members))


def _member_line(member: dict[str, Any]) -> str:
    """One portfolio member's part of the work (`Stats.members`)."""
    retired = " (retired)" if member["retired"] else ""
    return f"{member['member']} {member['seconds']:.1f} s, {member['expanded']:,} expanded{retired}"


def _setup(
    domain: Domain,
    options: dict[Any, Any],
    tree_file: Path | None,
    *,
    engine: str | None,
    heuristic: str | None,
    weight: float | None,
    depth: int | None,
    param: list[str] | None,
    max_nodes: int | None,
    timeout: float | None,
    max_states: int | None,
    max_memory: float | None,
) -> tuple[Job, Limits]:
    """The checked job and limits of a ``solve`` or ``tree`` command, before any search."""
    limits = _limits(max_nodes, timeout, max_states, max_memory)
    _check_tree_file(tree_file)
    return _prepare(domain, options, engine, heuristic, weight, depth, param), limits


def _run_solve(domain: Domain, options: dict[Any, Any], *, json_output: bool, tree: Path | None, **search: Any) -> None:
    job, limits = _setup(domain, options, tree, **search)
    recorder = _tree_recorder(job, 2000) if tree is not None else None
    result = _search(job, limits, json_output, recorder)
    if recorder is not None and tree is not None:
        _save_tree(job, recorder, result, tree)
    if json_output:
        typer.echo(json.dumps(_result_json(job, result)))
    else:
        _print_text(job, result, limits)
    if result.status == SOLVED:
        domain.after_solve(job.problem, result, job.options, lambda m: typer.echo(m, err=True))
    raise typer.Exit(_exit_code(result))


def _check_tree_file(path: Path | None) -> None:
    """Refuse an unknown tree file suffix before searching, not after."""
    from .render import SUFFIXES

    if path is not None and path.suffix.lower() not in SUFFIXES:
        raise InputError(f"cannot write a tree to {path.name!r}: use one of {', '.join(SUFFIXES)}")
    if path is not None and path.is_dir():
        raise InputError(f"cannot write a tree to {path}: it is a directory")


def _tree_recorder(job: Job, max_nodes: int) -> TreeRecorder:
    from .render.job import job_recorder

    return job_recorder(job, max_nodes)


def _save_tree(job: Job, recorder: TreeRecorder, result: Result, path: Path) -> None:
    from .render.job import save_job_tree

    graph = save_job_tree(job, recorder, result, path)
    typer.echo(f"search tree: {graph.number_of_nodes():,} nodes written to {path}", err=True)


def _run_tree(
    domain: Domain, options: dict[Any, Any], *, json_output: bool, output: Path, tree_nodes: int, **search: Any
) -> None:
    job, limits = _setup(domain, options, output, **search)
    recorder = _tree_recorder(job, tree_nodes)
    result = _search(job, limits, True, recorder)
    _save_tree(job, recorder, result, output)
    if json_output:
        typer.echo(json.dumps(_result_json(job, result)))
    raise typer.Exit(_exit_code(result))


def _run_check(domain: Domain, options: dict[Any, Any], *, json_output: bool) -> None:
    """Run the contract's checks on the instance the options name (none: the domain's own
    small ones), after a line naming each instance; exit 0 only when none fails."""
    from .testing import FAIL, checks, label

    defaults = {p.name: p.default for p in domain.params}
    given = {k: v for k, v in options.items() if v is not None and v != defaults.get(k)}
    instances = [given] if given else domain.check_instances()
    found = checks(domain, instances)
    names = [label(domain, o) for o in instances]
    if not json_output:
        for i, name in enumerate(names, 1):
            typer.echo(f"instance {i}: {name}")
    outcomes = []
    for check in found:
        outcome = check.outcome()
        outcomes.append(outcome)
        if not json_output:
            typer.echo(outcome.line())
    failed = sum(o.status == FAIL for o in outcomes)
    if json_output:
        typer.echo(
            json.dumps(
                {
                    "domain": domain.name,
                    "instances": names,
                    "failed": failed,
                    "checks": [{"name": o.name, "status": o.status, "detail": o.detail} for o in outcomes],
                }
            )
        )
    else:
        passed = sum(o.status == "pass" for o in outcomes)
        typer.echo(f"{domain.name}: {passed} passed, {failed} failed, {len(outcomes) - passed - failed} skipped")
    raise typer.Exit(EXIT_FAILURE if failed else EXIT_OK)


# -- listing commands ---------------------------------------------------------------------------
def _default_row(dom: Domain, label: str, options: dict[str, Any]) -> dict[str, Any]:
    """What ``solve`` runs on these options when no engine is named, and what it promises."""
    from .solving import resolve_engine

    full = {p.name: p.default for p in dom.params}
    full.update(options)
    info, params, heuristic = resolve_engine(dom, full, None, None)
    h = dom.heuristics.get(heuristic) if heuristic and info.heuristic != "ignored" else None
    admissible = h is None or h.admissible
    return {
        "case": label,
        "engine": info.name,
        "heuristic": h.name if h else None,
        "params": params,
        "guarantee": info.guarantee(params, admissible),
    }


@app.command("domains")
def domains_command(json_output: Annotated[bool, typer.Option("--json", help="print JSON")] = False) -> None:
    """List the installed domains, their heuristics and their defaults (per case, e.g. board size)."""
    from .plugins import domains, get_engine

    rows = []
    for name, dom in domains().items():
        cases = [_default_row(dom, label, options) for label, options in dom.default_cases()]
        rows.append(
            {
                "name": name,
                "summary": dom.summary,
                "heuristics": {
                    h.name: {"summary": h.summary, "admissible": h.admissible} for h in dom.heuristics.values()
                },
                "default_engine": cases[0]["engine"],
                "default_heuristic": cases[0]["heuristic"],
                "default_params": cases[0]["params"],
                "defaults": cases,
                "options": [p.name for p in dom.params],
            }
        )
    if json_output:
        typer.echo(json.dumps(rows))
        return
    for row in rows:
        typer.echo(f"{row['name']}: {row['summary']}")
        for case in row["defaults"]:
            label = f"default ({case['case']})" if case["case"] else "default"
            limited = set(case["params"]) - set(get_engine(case["engine"]).in_effect(case["params"], None))
            params = ", ".join(
                (f"{k} {v:g}" if isinstance(v, float) else f"{k} {v}")
                + (" with --timeout or --max-nodes" if k in limited else "")
                for k, v in case["params"].items()
            )
            typer.echo(
                f"  {label}: {case['engine']} + {case['heuristic'] or 'no heuristic'}"
                + (f" ({params})" if params else "")
                + f" · {case['guarantee']}"
            )
        for h, info in row["heuristics"].items():
            typer.echo(f"  heuristic {h}: {info['summary']}" + ("" if info["admissible"] else " (inadmissible)"))


def _engine_row(e: Any) -> dict[str, Any]:
    return {
        "name": e.name,
        "summary": e.summary,
        "heuristic": e.heuristic,
        "optimal": e.optimal or None,
        "guarantee": e.guarantee(),
        "params": e.params,
        "domains": list(e.domains) or None,
        "backward": e.backward,
        "backward_heuristic": e.backward_heuristic,
        "complete": e.complete,
        "param_specs": {
            n: {
                "type": {int: "int", float: "float", bool: "bool"}.get(p.kind, "str"),
                "default": p.default,
                "minimum": p.minimum,
                "maximum": p.maximum,
                "choices": list(p.choices) if p.choices else None,
                "help": p.help,
            }
            for n, p in e.specs.items()
        },
    }


@app.command("engines")
def engines_command(json_output: Annotated[bool, typer.Option("--json", help="print JSON")] = False) -> None:
    """List the engines: what each needs, guarantees with its defaults, and its parameters."""
    from .plugins import engines

    infos = list(engines().values())
    if json_output:
        typer.echo(json.dumps([_engine_row(e) for e in infos]))
        return
    width = max(len(e.name) for e in infos)
    for e in infos:
        notes = [e.guarantee()]
        if e.heuristic != "ignored":
            notes.append(f"heuristic {e.heuristic}")
        if e.domains:
            notes.append(f"{' and '.join(e.domains)} only")
        if e.backward:
            notes.append(
                "needs predecessors" + (" and a backward heuristic" if e.backward_heuristic == "required" else "")
            )
        typer.echo(f"{e.name:<{width}}  {e.summary} ({', '.join(notes)})")
        for spec in e.specs.values():
            flag = f"--{spec.name}" if spec.name in ("weight", "depth") else f"-P {spec.name}=..."
            typer.echo(f"{'':<{width}}    {flag}: {spec.describe()}" + (f" {spec.help}" if spec.help else ""))


@app.command("warm-up")
def warm_up_command(
    names: Annotated[
        Optional[list[str]],
        typer.Argument(help="engines (default: every engine, unless --domain names domains)", show_default=False),
    ] = None,
    domain_names: Annotated[
        Optional[list[str]],
        typer.Option(
            "--domain",
            help="compile this domain's compiled rules (repeatable; default: every domain's, unless engines are named)",
            show_default=False,
        ),
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Compile and load the engines' compiled code and the kernels of the domains' compiled
    rules now (numba caches them on disk), so a first solve after installing does not spend
    its time limit on it."""
    from .plugins import domains, engines
    from .warmup import rules_warm_ups, run_rules_warm_ups, run_warm_ups, warm_ups

    every = not names and not domain_names
    groups = warm_ups(engines().values(), names) if names or every else []
    found = rules_warm_ups(domains().values(), domain_names) if domain_names or every else []
    done = run_warm_ups(groups, lambda served: typer.echo(f"warming up {', '.join(served)} ...", err=True))
    done += run_rules_warm_ups(
        found,
        lambda item: typer.echo(f"warming up compiled rules {item.module} ({', '.join(item.domains)}) ...", err=True),
    )
    if json_output:
        typer.echo(json.dumps(done))
        return
    for row in done:
        what = ", ".join(row["engines"]) if "engines" in row else f"compiled rules {row['rules']}"
        if "domains" in row:
            what += f" ({', '.join(row['domains'])})"
        typer.echo(f"{row['seconds']:7.1f} s  {what}")
    counts = [f"{len(groups)} set-up" + ("" if len(groups) == 1 else "s")] if groups or not found else []
    if found:
        counts.append(f"{len(found)} compiled rules module" + ("" if len(found) == 1 else "s"))
    typer.echo(f"ready: {' and '.join(counts)} in {sum(row['seconds'] for row in done):.1f} s")


def add_domain_commands(dom: Domain) -> list[tuple[typer.Typer, Any]]:
    """Add ``solve DOMAIN``, ``tree DOMAIN`` and ``check DOMAIN`` for ``dom``; the groups and
    their added command infos (a test that registers a domain after the app was built adds
    them with this, and removes them after).  ValueError when the domain's options clash
    with searchkit's."""
    commands = [
        (solve_app, _command_for(dom, COMMON + SOLVE_ONLY, _run_solve)),
        (tree_app, _command_for(dom, COMMON + TREE_ONLY, _run_tree, outputs=False)),
        (check_app, _command_for(dom, CHECK_ONLY, _run_check, outputs=False, optional_arguments=True)),
    ]
    added = []
    for group, command in commands:
        group.command(dom.name, help=dom.summary)(command)
        added.append((group, group.registered_commands[-1]))
    return added


def _register_domain_commands() -> None:
    from .plugins import _call_each, domains, get_plugin_manager, report_broken

    for dom in domains().values():
        try:
            add_domain_commands(dom)
        except ValueError as e:
            report_broken(type(dom).__module__.split(".")[0], e)
    from .bench.command import bench, plot

    app.command("bench")(bench)
    app.command("plot")(plot)
    _call_each(get_plugin_manager().hook.register_commands, cli=app)
    from .play.command import build_play_app

    app.add_typer(build_play_app(), name="play")
    from .serve.command import serve
    from .serve.loadtest import loadtest

    app.command("serve")(serve)
    app.command("serve-loadtest")(loadtest)


_registered = False


def build_app() -> typer.Typer:
    """The app with every plugin's domains and commands added (done once)."""
    global _registered
    if not _registered:
        _registered = True
        _register_domain_commands()
    return app


def _plain_flags(command: Any) -> None:
    """Flags take no value, so their help shows no ``<bool>`` type (typer shows one)."""

    def plain(param: Any) -> Any:
        if param is not None and getattr(param, "is_flag", False):
            param.metavar = ""
        return param

    for param in command.params:
        plain(param)
    help_option = command.get_help_option
    command.get_help_option = lambda ctx: plain(help_option(ctx))
    for sub in getattr(command, "commands", {}).values():
        _plain_flags(sub)


def main() -> None:
    """Entry point: one-line errors, no tracebacks unless SEARCHKIT_DEBUG is set."""
    debug = bool(os.environ.get("SEARCHKIT_DEBUG"))
    try:
        # without standalone mode a command's typer.Exit comes back as the return value
        command = typer.main.get_command(build_app())
        _plain_flags(command)
        code = command.main(prog_name="searchkit", standalone_mode=False)
        sys.exit(code if isinstance(code, int) else EXIT_OK)
    except typer.Exit as e:
        sys.exit(e.exit_code)
    except InputError as e:
        if debug:
            raise
        typer.echo(f"Error: {e}", err=True)
        sys.exit(EXIT_USAGE)
    except PluginError as e:  # a plugin broke its contract: its fault, not the user's input
        if debug:
            raise
        typer.echo(f"Error: {e}", err=True)
        sys.exit(EXIT_FAILURE)
    except KeyboardInterrupt:
        typer.echo("Error: interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except Exception as e:  # click usage errors and genuine failures
        _report(e, debug)


def _report(e: Exception, debug: bool) -> None:
    if hasattr(e, "format_message") and hasattr(e, "exit_code"):  # typer's usage errors
        message = e.format_message()
        if message:  # empty when no_args_is_help has already printed the help
            typer.echo(f"Error: {message} (see --help)", err=True)
        sys.exit(EXIT_USAGE)
    if isinstance(e, typer.Abort):
        typer.echo("Error: interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
    if debug:
        raise e
    typer.echo(f"Error: internal failure: {type(e).__name__}: {e} (set SEARCHKIT_DEBUG=1 for a traceback)", err=True)
    sys.exit(EXIT_FAILURE)
