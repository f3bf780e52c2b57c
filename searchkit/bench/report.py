"""What a bench run shows: a live progress bar, a line per finished run, a summary table.

The numbers of the summary come from `summarize` (plain dicts, also the ``--json``
summary); the rest of this module only draws them with rich.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from .suite import Config, Suite

STATUS_STYLE = {"solved": "green", "no-solution": "yellow", "limit": "yellow", "error": "bold red"}


def reference_config(configs: list[Config]) -> Config:
    """The configuration the others' speed is measured against: a baseline, else the first."""
    return next((c for c in configs if c.is_baseline), configs[0])


def summarize(records: Iterable[dict[str, Any]], configs: list[Config]) -> list[dict[str, Any]]:
    """Per-configuration totals, in the suite's order.

    ``speedup`` is the reference configuration's total search time over this one's, both
    taken on the instances that both solved (> 1: faster than the reference).
    """
    by_config: dict[str, list[dict[Any, Any]]] = {c.name: [] for c in configs}
    for r in records:
        if r.get("config") in by_config:
            by_config[r["config"]].append(r)
    ref = reference_config(configs).name
    ref_time = {r["instance"]: r["stats"]["elapsed_s"] for r in by_config[ref] if r["status"] == "solved"}
    rows = []
    for config in configs:
        recs = by_config[config.name]
        times = [r["stats"]["elapsed_s"] for r in recs]
        measured = [r["stats"] for r in recs if r["stats"]["elapsed_s"] > 0 and r["stats"]["expanded"] > 0]
        per_stored = [r["rss_per_stored_bytes"] for r in recs if r.get("rss_per_stored_bytes") is not None]
        solved = [r for r in recs if r["status"] == "solved"]
        common = [r for r in solved if r["instance"] in ref_time]
        mine = sum(r["stats"]["elapsed_s"] for r in common)
        theirs = sum(ref_time[r["instance"]] for r in common)
        rows.append(
            {
                "config": config.name,
                "engine": config.engine,
                "heuristic": config.heuristic,
                "runs": len(recs),
                "solved": len(solved),
                "limits": sum(r["status"] == "limit" for r in recs),
                "errors": sum(r["status"] == "error" for r in recs),
                "wrong_cost": sum(r.get("cost_ok") is False for r in recs),
                "total_s": round(sum(times), 4),
                "median_s": round(statistics.median(times), 4) if times else None,
                "expanded": sum(r["stats"]["expanded"] for r in recs),
                "generated": sum(r["stats"]["generated"] for r in recs),
                "total_cost": sum(r["cost"] for r in solved if r["cost"] is not None),
                # before a domain's optimizer pass (`Domain.improve`), when one ran: the answers as found
                "total_found_cost": sum(r.get("found_cost", r["cost"]) for r in solved if r["cost"] is not None)
                if any(r.get("found_cost") is not None for r in solved)
                else None,
                "mean_expansions_per_s": round(statistics.fmean(s["expansions_per_s"] for s in measured), 1)
                if measured
                else None,
                "mean_generated_per_s": round(statistics.fmean(s["generated_per_s"] for s in measured), 1)
                if measured
                else None,
                "rss_per_stored_bytes": round(statistics.median(per_stored), 1) if per_stored else None,
                "reference": ref,
                "speedup": round(theirs / mine, 3) if common and mine > 0 and theirs > 0 else None,
                "members": _members(recs),
            }
        )
    return rows


def _members(records: list[dict[str, Any]]) -> dict[str, dict[str, Any]] | None:
    """A portfolio configuration's members over its runs: the answers each gave (alone, or
    meeting another: ``answered_by`` ``a+b`` counts for both) and the seconds of its own
    turns (`Stats.members`); None for other engines."""
    out: defaultdict[str, dict[str, Any]] = defaultdict(lambda: {"answered": 0, "seconds": 0.0})
    for r in records:
        for m in r["stats"].get("members") or ():
            out[m["member"]]["seconds"] += m["seconds"]
        who = r["stats"].get("answered_by")
        if r["status"] == "solved" and who:
            for name in who.split("+"):
                out[name]["answered"] += 1
    return {name: {**part, "seconds": round(part["seconds"], 3)} for name, part in out.items()} or None


def failures(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Records that make the run fail: a wrong optimal cost or an error."""
    return [r for r in records if r.get("cost_ok") is False or r["status"] == "error"]


def failure_line(record: dict[str, Any]) -> str:
    if record.get("cost_ok") is False:
        got = "no solution" if record["status"] == "no-solution" else f"cost {_num(record['cost'])}"
        return (
            f"WRONG COST: {record['config']} on {record['instance']}: {got}, expected "
            f"{_num(record['expected_cost'])} ({record['guarantee'] or 'from an optimal configuration'})"
        )
    return f"ERROR: {record['config']} on {record['instance']}: {record['error']}"


class Display:
    """The runner's listener: progress on stderr (a TTY only), rows on ``out``."""

    def __init__(self, suite: Suite, out: Console, err: Console, *, rows: bool = True, progress: bool = True):
        self.suite = suite
        self.out, self.err = out, err
        self.rows = rows
        self.progress = (
            Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("solved {task.fields[solved]}"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=err,
                auto_refresh=False,
                transient=True,
            )
            if progress and err.is_terminal
            else None
        )
        self.task: Any = None  # the progress bar's task id once started
        self.solved = 0
        names = [c.name for c in suite.configs]
        self.w_config = max(6, *(len(n) for n in names))
        self.w_instance = min(24, max(8, *(len(i.name) for i in suite.instances))) if suite.instances else 8

    def __enter__(self) -> Display:
        if self.progress is not None:
            self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()

    # -- Listener ---------------------------------------------------------------------------
    def start(self, total: int, already_done: int) -> None:
        if already_done:
            self._say(self.err, f"[dim]resuming: {already_done} runs already in the results file[/]")
        if self.progress is not None:
            self.task = self.progress.add_task(self.suite.name, total=total, solved=0)
            self.progress.refresh()
        if self.rows and total:
            self._say(self.out, "[bold]" + escape(self._header()) + "[/]")

    def finished(self, record: dict[str, Any]) -> None:
        self.solved += record["status"] == "solved"
        if self.progress is not None:
            self.progress.update(self.task, advance=1, solved=self.solved)
            self.progress.refresh()
        if self.rows:
            self._say(self.out, self._row(record))
        if record.get("cost_ok") is False or record["status"] == "error":
            self._say(self.err, f"[bold red]{escape(failure_line(record))}[/]")

    def tick(self) -> None:
        if self.progress is not None:
            self.progress.refresh()

    # -- drawing ----------------------------------------------------------------------------
    def _say(self, console: Console, text: str) -> None:
        """Print above the live bar when both share the terminal."""
        if self.progress is not None and console.is_terminal:
            console = self.progress.console
        console.print(text, highlight=False, soft_wrap=True)

    def _header(self) -> str:
        return (
            f"{'config':<{self.w_config}}  {'instance':<{self.w_instance}}  {'status':<11}  {'cost':>8}  "
            f"{'expected':>8}  {'expanded':>11}  {'generated':>11}  {'seconds':>8}  {'exp/s':>10}"
        )

    def _row(self, r: dict[str, Any]) -> str:
        s = r["stats"]
        status = r["status"] if r["status"] != "limit" else f"limit:{s.get('limit_reason') or '?'}"
        style = "bold red" if r.get("cost_ok") is False else STATUS_STYLE.get(r["status"], "")
        cost = _num(r["cost"]) + (" ✗" if r.get("cost_ok") is False else "")
        instance = escape(r["instance"][: self.w_instance])
        return (
            f"{escape(r['config']):<{self.w_config}}  {instance:<{self.w_instance}}  "
            f"[{style}]{status:<11}[/]  {cost:>8}  {_num(r['expected_cost']):>8}  {s['expanded']:>11,}  "
            f"{s['generated']:>11,}  {s['elapsed_s']:>8.3f}  {s['expansions_per_s']:>10,.0f}"
            + (f"  found {_num(r['found_cost'])}" if r.get("found_cost") is not None else "")
        )


def print_summary(console: Console, suite: Suite, summary: list[dict[str, Any]]) -> None:
    """The per-configuration table."""
    ref = summary[0]["reference"] if summary else ""
    table = Table(
        title=f"{suite.name}: {len(suite.instances)} instances x {len(suite.configs)} configs",
        caption=f"speed: {ref}'s search time / this one's, on the instances both solved",
        title_justify="left",
        caption_justify="left",
        header_style="bold",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    longest = max((len(row["config"]) for row in summary), default=6)
    table.add_column("config", no_wrap=True, min_width=min(longest, 24))
    found = any(row.get("total_found_cost") is not None for row in summary)
    heads = ["solved", "time s", "median", "expanded", "cost", "exp/s", "gen/s", "B/state", "speed"]
    if found:
        heads.insert(5, "found")  # the cost before the domain's optimizer pass
    for head in heads:
        table.add_column(head, justify="right", no_wrap=True)
    for row in summary:
        solved = f"{row['solved']}/{row['runs']}"
        if row["wrong_cost"] or row["errors"]:
            solved = f"[bold red]{solved}[/]"
        cells = [
            escape(row["config"]),
            solved,
            _secs(row["total_s"]),
            _secs(row["median_s"]),
            _si(row["expanded"]),
            _num(row["total_cost"]),
            _si(row["mean_expansions_per_s"]),
            _si(row["mean_generated_per_s"]),
            "-" if row["rss_per_stored_bytes"] is None else f"{row['rss_per_stored_bytes']:,.0f}",
            "-" if row["speedup"] is None else f"{row['speedup']:.2f}x",
        ]
        if found:
            cells.insert(6, _num(row.get("total_found_cost")))
        table.add_row(*cells)
    console.print(table)
    for row in summary:
        if row.get("members"):
            parts = sorted(row["members"].items(), key=lambda kv: -kv[1]["seconds"])
            said = ", ".join(f"{name} {m['answered']} answered in {m['seconds']:,.1f} s of turns" for name, m in parts)
            console.print(escape(f"{row['config']} members: {said}"))


def _num(x: Any) -> str:
    if x is None:
        return "-"
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return f"{x:g}" if isinstance(x, float) else str(x)


def _secs(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def _si(x: float | None) -> str:
    """Counts and rates short enough for an 80-column table: 9,999 / 12.3k / 4.56M."""
    if x is None:
        return "-"
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if x >= 10 * scale if suffix == "k" else x >= scale:
            v = x / scale
            return f"{v:.3g}{suffix}" if v < 1000 else f"{v:,.0f}{suffix}"
    return f"{x:,.0f}"
