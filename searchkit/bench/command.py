"""``searchkit bench SUITE`` and ``searchkit plot RESULTS``: the typer commands (registered in cli.py)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..errors import InputError

EXIT_OK, EXIT_FAILED, EXIT_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130


def bench(
    suite: Annotated[Path, typer.Argument(help="Suite file (TOML), e.g. configs/engines15.toml.", show_default=False)],
    output: Annotated[
        Path | None,
        typer.Option("-o", "--output", help="Write results here as JSON Lines, a line per run as it finishes."),
    ] = None,
    jobs: Annotated[
        int | None, typer.Option("-j", "--jobs", min=1, help="Worker processes (default: the CPU count).")
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Keep the --output file and skip the runs it already holds.")
    ] = False,
    select: Annotated[
        str | None, typer.Option("--select", help='Instances to run, 1-based, e.g. "1-10,15" (overrides the suite).')
    ] = None,
    timeout: Annotated[
        float | None, typer.Option("--timeout", help="Per-instance time limit in seconds (overrides the suite).")
    ] = None,
    instances: Annotated[
        str | None,
        typer.Option(
            "--instances",
            help="Run the suite's configurations and limits on this instance file instead, e.g. a level "
            "collection of your own (a path, or a name the domain knows).",
        ),
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print one JSON document (summary and records) on stdout.")
    ] = False,
    executor: Annotated[
        str,
        typer.Option(
            "--executor", help="Where the runs go: local (a process pool here) or dask (an existing cluster)."
        ),
    ] = "local",
    scheduler: Annotated[
        str | None,
        typer.Option("--scheduler", help="The Dask scheduler's address for --executor dask, e.g. tcp://10.0.0.5:8786."),
    ] = None,
) -> None:
    """Run a benchmark suite: every configuration on every instance, each in its own process.

    Exit codes: 0 all well, 1 a wrong optimal cost or an error, 2 a bad suite, 130 interrupted.
    """
    from rich.console import Console

    from .executors import make_executor
    from .report import Display, failures, print_summary, summarize
    from .runner import run_suite
    from .suite import load_suite

    err = Console(stderr=True)
    try:
        loaded = load_suite(suite, select=select, timeout_s=timeout, instances=instances)
        pool = make_executor(
            executor, jobs=jobs or (os.cpu_count() if executor == "local" else None), scheduler=scheduler
        )
        out = Console() if sys.stdout.isatty() else Console(width=160)
        with Display(loaded, out, err, rows=not json_out, progress=not json_out) as display:
            outcome = run_suite(
                loaded, jobs=jobs or os.cpu_count(), output=output, resume=resume, listener=display, executor=pool
            )
    except InputError as e:
        typer.echo(f"Error: {e}", err=True)
        raise typer.Exit(EXIT_INPUT) from None

    summary = summarize(outcome.records, loaded.configs)
    bad = failures(outcome.records)
    if json_out:
        doc = {
            "suite": loaded.name,
            "domain": loaded.domain,
            "description": loaded.description,
            "instances": len(loaded.instances),
            "configs": [c.name for c in loaded.configs],
            "executor": executor,
            "interrupted": outcome.interrupted,
            "ran": outcome.ran,
            "resumed": outcome.skipped,
            "ok": not bad,
            "summary": summary,
            "records": outcome.records,
        }
        sys.stdout.write(json.dumps(doc, default=str) + "\n")
    else:
        if outcome.records:
            print_summary(out, loaded, summary)
        if bad:  # each was reported in red as it happened; this is the tally
            wrong = sum(r.get("cost_ok") is False for r in bad)
            err.print(
                f"[bold red]FAILED: {wrong} wrong optimal cost(s), {len(bad) - wrong} error(s)[/]", highlight=False
            )
        if output is not None:
            err.print(f"results: {output}", highlight=False, soft_wrap=True)
    if outcome.interrupted:
        err.print(
            "[yellow]interrupted: the finished runs are kept[/]"
            + (" (continue with --resume)" if output is not None else ""),
            highlight=False,
        )
        raise typer.Exit(EXIT_INTERRUPTED)
    if bad:
        raise typer.Exit(EXIT_FAILED)


def plot(
    results: Annotated[
        list[Path],
        typer.Argument(
            help="Results files (JSON Lines written by searchkit bench -o).", metavar="RESULTS...", show_default=False
        ),
    ],
    output: Annotated[
        Path, typer.Option("-o", "--output", help="Picture to write: .png, .svg or .pdf.", show_default=False)
    ],
    kind: Annotated[
        str,
        typer.Option("-k", "--kind", help="cactus (solved vs time), nodes-cost (nodes vs cost) or speedup (A vs B)."),
    ] = "cactus",
    metric: Annotated[str, typer.Option("--metric", help="time or nodes (cactus and speedup).")] = "time",
    pair: Annotated[
        str | None,
        typer.Option("--pair", help='The two configurations of a speedup plot, "A,B" (default: the first two).'),
    ] = None,
    configs: Annotated[
        str | None, typer.Option("--configs", help="Only these configurations, comma-separated, in this order.")
    ] = None,
    suite: Annotated[str | None, typer.Option("--suite", help="Only the records of this suite.")] = None,
    title: Annotated[str | None, typer.Option("--title", help="The picture's title.")] = None,
) -> None:
    """Draw a solver-comparison picture from bench results: a cactus plot, nodes vs cost, or
    a per-instance speed-up scatter of two configurations (log-log, with the diagonal)."""
    from .plots import plot_results

    try:
        chosen = None
        if pair is not None:
            parts = [p.strip() for p in pair.split(",")]
            if len(parts) != 2 or not all(parts):
                raise InputError(f'--pair takes two configuration names, "A,B" (got {pair!r})')
            chosen = (parts[0], parts[1])
        names = [c.strip() for c in configs.split(",") if c.strip()] if configs else None
        written = plot_results(
            results, output, kind, metric=metric, pair=chosen, configs=names, suite=suite, title=title or ""
        )
    except InputError as e:
        typer.echo(f"Error: {e}", err=True)
        raise typer.Exit(EXIT_INPUT) from None
    typer.echo(f"{kind} plot written to {written}", err=True)
