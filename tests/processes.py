"""Other processes in the tests: the command line run with an installed plugin, and what
the tests read of a process: its CPU time, counted by the kernel.

CPU time, unlike wall time, does not stretch on a loaded machine: a test that waits for a
child to have *worked* for a while, or checks that it did not, stays true whatever else runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from project import ROOT


def wait_for(test: Callable[[], object], seconds: float = 10.0, every: float = 0.05) -> bool:
    """Poll ``test()`` every ``every`` seconds until it holds (True) or ``seconds`` pass (False)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if test():
            return True
        time.sleep(every)
    return False


def cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds process ``pid`` has used so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def wait_for_cpu(pid: int, seconds: float, timeout: float = 120.0) -> None:
    """Return once ``pid`` has used ``seconds`` of CPU; AssertionError after ``timeout`` wall
    seconds (a process that sleeps or died never gets there)."""
    deadline = time.monotonic() + timeout
    while cpu_seconds(pid) < seconds:
        assert time.monotonic() < deadline, f"process {pid} used under {seconds} s of CPU in {timeout} s"
        time.sleep(0.05)


def wait_until_idle(pid: int, window: float = 1.0, timeout: float = 60.0) -> float:
    """Wait until ``pid`` uses (next to) no CPU for ``window`` wall seconds; its CPU seconds
    then.  AssertionError when it never rests within ``timeout`` wall seconds."""
    deadline = time.monotonic() + timeout
    before = cpu_seconds(pid)
    while True:
        time.sleep(window)
        now = cpu_seconds(pid)
        if now - before <= 0.02:
            return now
        assert time.monotonic() < deadline, f"process {pid} never rested in {timeout} s"
        before = now


def run_with_plugin(installed: Path, *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """``searchkit ARGS`` in a fresh process that finds the plugin pip-installed into the
    folder ``installed`` (the ``installed`` fixture) through its entry point, as a user's would."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(installed), os.environ.get("PYTHONPATH", "")]))
    env.pop("SEARCHKIT_LOAD_PLUGINS", None)
    return subprocess.run(
        [sys.executable, "-c", "from searchkit.cli import main; main()", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
    )
