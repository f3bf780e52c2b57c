"""The load test that ships as ``searchkit serve-loadtest``, run small: a real server in a
subprocess, three players for five seconds, no errors and no lost save."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from searchkit.cli import build_app as build_cli
from searchkit.serve.loadtest import percentile


@pytest.mark.slow  # over 10 s here: five seconds of load and the server around it
def test_three_players_for_five_seconds() -> None:
    # the latency target is loose here: the suite may share the machine with anything
    args = ["serve-loadtest", "--clients", "3", "--duration", "5", "--json", "--p95-target", "5000"]
    done = CliRunner().invoke(build_cli(), [*args, "--think-ms", "20", "--seed", "7"])
    doc = json.loads(done.stdout)
    assert done.exit_code == 0, doc
    assert (doc["clients"], doc["think_ms"], doc["seed"]) == (3, 20, 7) and 5 <= doc["duration_s"] < 30
    assert doc["errors"] == 0 and doc["lost_saves"] == 0 and doc["saves"] > 0
    assert doc["games"] >= 3 and doc["moves"] > 20 and doc["requests"] > doc["moves"]
    assert 0 < doc["move_p50_ms"] <= doc["move_p95_ms"] <= doc["move_max_ms"]
    assert doc["rss_base_mb"] > 0 and doc["rss_after_mb"] - doc["rss_base_mb"] < 50


@pytest.mark.parametrize("args", [["--clients", "0"], ["--duration", "-1"], ["--url", "http://example.com:8000"]])
def test_bad_options_are_one_line_errors(args: list[str]) -> None:
    """Through the real entry point, which turns bad input into one ``Error:`` line."""
    command = [sys.executable, "-c", "from searchkit.cli import main; main()", "serve-loadtest", *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith("Error:"), done.stderr


def test_percentile_is_the_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 95) == 95 and percentile(values, 50) == 50 and percentile(values, 100) == 100
    assert percentile([3.0], 95) == 3 and percentile([], 95) == 0
