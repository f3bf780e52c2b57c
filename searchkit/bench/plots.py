"""Solver-comparison pictures from bench results (JSON Lines): cactus, nodes vs cost, speed-up.

* cactus: for each configuration, its solved instances sorted by time (or nodes); the
  k-th point is the time the k-th fastest one took.  A line further right solves more, a
  lower line solves faster.
* nodes-cost: nodes expanded against solution cost, a marker style per configuration.
* speedup: one point per instance both configurations ran, configuration A's time on x
  and B's on y, log-log with the diagonal; a run that did not solve sits on the timeout
  line (drawn open), so a censored point is visible as such.

matplotlib is imported only here and only when a picture is drawn; figures are built
with `matplotlib.figure.Figure` (Agg, no pyplot state) and saved atomically, the format
chosen by the file's suffix.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..atomic import atomic_path
from ..errors import InputError
from .runner import record_problem

FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
KINDS = ("cactus", "nodes-cost", "speedup")
METRICS = {"time": ("elapsed_s", "time per instance (s)"), "nodes": ("expanded", "nodes expanded")}
MARKERS = "osD^v<>pPX*h"


def load_results(paths: Iterable[Path]) -> list[dict[str, Any]]:
    """Every record of the given JSON Lines files; a torn last line is ignored, any other
    bad line is an `InputError` naming the file and line."""
    records: list[dict[str, Any]] = []
    for path in paths:
        try:
            lines = Path(path).read_text(encoding="utf-8").split("\n")
        except FileNotFoundError:
            raise InputError(f"results file {path} not found") from None
        except (OSError, UnicodeDecodeError) as e:
            raise InputError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
        last = len(lines) - 1
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except (ValueError, RecursionError):  # RecursionError: brackets nested thousands deep
                if n - 1 == last:
                    continue  # a run killed mid-write: the torn tail is not a result
                raise InputError(f"{path}: line {n} is not JSON") from None
            problem = record_problem(record)
            if problem is not None:
                raise InputError(f"{path}: line {n} {problem}")
            records.append(record)
    if not records:
        raise InputError("no results to plot (the results files are empty)")
    return records


def series_names(records: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Records grouped by configuration (``suite/config`` when several suites are mixed),
    in the order they first appear; a repeated (config, instance) keeps its last record."""
    several = len({r.get("suite") for r in records}) > 1
    groups: dict[str, dict[str, dict[str, Any]]] = {}
    for r in records:
        name = f"{r.get('suite')}/{r['config']}" if several else str(r["config"])
        groups.setdefault(name, {})[str(r["instance"])] = r
    return {name: list(by_instance.values()) for name, by_instance in groups.items()}


def _value(record: dict[str, Any], key: str) -> float:
    return float(record["stats"].get(key) or 0.0)


def _figure(width: float = 7.0, height: float = 4.8) -> Any:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=110, facecolor="white", layout="constrained")
    return fig, fig.add_subplot()


def cactus(groups: dict[str, list[dict[str, Any]]], metric: str = "time", title: str = "") -> Any:
    """The cactus plot: solved instances (x) against time or nodes per instance (y, log)."""
    key, label = METRICS[metric]
    fig, ax = _figure()
    most = 0
    for i, (name, records) in enumerate(groups.items()):
        values = sorted(max(_value(r, key), 1e-6) for r in records if r["status"] == "solved")
        most = max(most, len(values))
        ax.step(
            range(1, len(values) + 1),
            values,
            where="post",
            marker=MARKERS[i % len(MARKERS)],
            markersize=4,
            linewidth=1.5,
            label=f"{name} ({len(values)}/{len(records)})",
        )
    ax.set_yscale("log")
    ax.set_xlabel("instances solved")
    ax.set_ylabel(label)
    ax.set_xlim(0, max(1, most) + 0.5)
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # counts of instances: no 2.5
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    ax.set_title(title or f"cactus plot: {label}")
    return fig


def nodes_cost(groups: dict[str, list[dict[str, Any]]], title: str = "") -> Any:
    """Nodes expanded (x, log) against solution cost (y), solved runs only."""
    fig, ax = _figure()
    drawn = 0
    for i, (name, records) in enumerate(groups.items()):
        solved = [r for r in records if r["status"] == "solved" and r.get("cost") is not None]
        drawn += len(solved)
        ax.scatter(
            [max(_value(r, "expanded"), 1) for r in solved],
            [r["cost"] for r in solved],
            s=22,
            alpha=0.75,
            marker=MARKERS[i % len(MARKERS)],
            label=f"{name} ({len(solved)})",
        )
    if not drawn:
        raise InputError("no solved runs to plot")
    ax.set_xscale("log")
    ax.set_xlabel("nodes expanded")
    ax.set_ylabel("solution cost")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(title or "nodes expanded vs solution cost")
    return fig


def speedup_points(
    a: list[dict[str, Any]], b: list[dict[str, Any]], metric: str = "time"
) -> list[tuple[str, float, float, bool]]:
    """``(instance, a value, b value, both solved)`` per instance both ran; an unsolved
    run's value is the largest either configuration reached (it is censored there)."""
    key, _ = METRICS[metric]
    by_a = {str(r["instance"]): r for r in a}
    by_b = {str(r["instance"]): r for r in b}
    common = [i for i in by_a if i in by_b]
    if not common:
        raise InputError("the two configurations have no instance in common")
    cap = max(max(_value(by_a[i], key), _value(by_b[i], key)) for i in common) or 1.0
    floor = 1e-6 if metric == "time" else 1.0
    points = []
    for i in common:
        ra, rb = by_a[i], by_b[i]
        both = ra["status"] == "solved" and rb["status"] == "solved"
        va = max(_value(ra, key), floor) if ra["status"] == "solved" else cap
        vb = max(_value(rb, key), floor) if rb["status"] == "solved" else cap
        points.append((i, va, vb, both))
    return points


def speedup(
    groups: dict[str, list[dict[str, Any]]], pair: tuple[str, str] | None = None, metric: str = "time", title: str = ""
) -> Any:
    """Per-instance scatter of configuration A (x) against B (y), log-log, y = x drawn."""
    names = list(groups)
    if pair is None:
        if len(names) < 2:
            raise InputError(f"a speed-up plot needs two configurations; the results hold {', '.join(names)}")
        pair = (names[0], names[1])
    for name in pair:
        if name not in groups:
            raise InputError(f"no configuration {name!r} in the results (known: {', '.join(names)})")
    a, b = pair
    key, label = METRICS[metric]
    points = speedup_points(groups[a], groups[b], metric)
    fig, ax = _figure(5.8, 6.0)
    solved = [(x, y) for _i, x, y, ok in points if ok]
    censored = [(x, y) for _i, x, y, ok in points if not ok]
    if solved:
        ax.scatter(*zip(*solved), s=24, alpha=0.8, label=f"both solved ({len(solved)})")
    if censored:
        ax.scatter(
            *zip(*censored),
            s=28,
            facecolors="none",
            edgecolors="tab:red",
            label=f"unsolved by one or both ({len(censored)})",
        )
    lo = min(min(x, y) for _i, x, y, _ok in points)
    hi = max(max(x, y) for _i, x, y, _ok in points)
    lo, hi = lo / 1.5, hi * 1.5
    ax.plot([lo, hi], [lo, hi], color="grey", linewidth=1, linestyle="--", label="equal")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_aspect("equal")
    ax.set_xlabel(f"{a}: {label}")
    ax.set_ylabel(f"{b}: {label}")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=3, frameon=False)
    heading = title or f"{b} vs {a}"
    ratio = geometric_mean_ratio(solved)
    if ratio is not None:
        better, worse = ("faster", "slower") if metric == "time" else ("fewer nodes", "more nodes")
        word, factor = (better, ratio) if ratio >= 1 else (worse, 1 / ratio)
        heading += f"\n{b}: {factor:.2f}x {word} than {a} (geometric mean, both solved)"
    ax.set_title(heading, fontsize=10)
    return fig


def geometric_mean_ratio(pairs: list[tuple[float, float]]) -> float | None:
    """The geometric mean of ``a / b`` (> 1: b is faster), None without pairs."""
    logs = [math.log(x / y) for x, y in pairs if x > 0 and y > 0]
    return math.exp(sum(logs) / len(logs)) if logs else None


def output_format(path: Path) -> str:
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise InputError(f"cannot draw to {path.name!r}: use a .png, .svg or .pdf file")
    return fmt


def plot_results(
    paths: list[Path],
    output: Path,
    kind: str = "cactus",
    *,
    metric: str = "time",
    pair: tuple[str, str] | None = None,
    configs: list[str] | None = None,
    suite: str | None = None,
    title: str = "",
) -> Path:
    """Draw one picture of the results files to ``output`` (format by suffix), atomically."""
    fmt = output_format(output)
    if kind not in KINDS:
        raise InputError(f"unknown plot {kind!r} (known: {', '.join(KINDS)})")
    if metric not in METRICS:
        raise InputError(f"unknown metric {metric!r} (known: {', '.join(METRICS)})")
    records = load_results(paths)
    if suite is not None:
        records = [r for r in records if r.get("suite") == suite]
        if not records:
            raise InputError(f"no results of suite {suite!r}")
    groups = series_names(records)
    if configs:
        missing = [c for c in configs if c not in groups]
        if missing:
            raise InputError(f"no configuration {missing[0]!r} in the results (known: {', '.join(groups)})")
        groups = {c: groups[c] for c in configs}
    if kind == "cactus":
        fig = cactus(groups, metric, title)
    elif kind == "nodes-cost":
        fig = nodes_cost(groups, title)
    else:
        fig = speedup(groups, pair, metric, title)
    with atomic_path(output) as tmp:
        extra = {"pil_kwargs": {"compress_level": 2}} if fmt == "png" else {}
        fig.savefig(tmp, format=fmt, facecolor="white", **extra)
    return output
