"""Shared fixtures: an infinite problem that no engine can finish (`problems.Counter`), the
web app under a test client, a test's own autosave folder, and the gridpath tutorial plugin
installed as a user would install it.

Under ``CI=true`` a skipped test fails: every check runs in CI, so a missing browser, tmux
or numba there is an error of the CI set-up, not a reason to pass quietly.  The one skip
left is the contract's own (`searchkit.testing`): a check that does not apply to a domain
(no predecessors, a heuristic not declared consistent) is a property of the domain, not of
the machine.
"""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from problems import Counter
from project import GRIDPATH

from searchkit.plugins import get_plugin_manager, registry_changed
from searchkit.testing import NOT_APPLICABLE


def _fail_skips_in_ci(report: Any) -> None:
    """Under ``CI=true`` a skip (of a test or of a whole module) becomes a failure that says
    what was missing."""
    if os.environ.get("CI", "").lower() == "true" and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if reason.startswith(f"Skipped: {NOT_APPLICABLE}"):
            return
        report.outcome = "failed"
        report.longrepr = f"skipped under CI=true, where every check must run: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport() -> Any:  # a hook may take none of its arguments
    outcome = yield
    _fail_skips_in_ci(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report() -> Any:
    outcome = yield
    _fail_skips_in_ci(outcome.get_result())


@pytest.fixture
def play_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A test's own autosave folder (`SEARCHKIT_PLAY_DIR`), never the user's: a module of
    game tests opts in with ``pytestmark = pytest.mark.usefixtures("play_dir")``."""
    monkeypatch.setenv("SEARCHKIT_PLAY_DIR", str(tmp_path / "autosaves"))
    return tmp_path / "autosaves"


@pytest.fixture
def counter() -> Counter:
    return Counter()


def _app_client() -> Any:
    """`searchkit serve`'s app under Starlette's test client (its lifespan runs only inside
    a ``with`` block)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Starlette's note about httpx versions
        from starlette.testclient import TestClient

        from searchkit.serve.app import build_app

        return TestClient(build_app())


@pytest.fixture
def live_client() -> Any:
    """The app with its lifespan running (the worker pools started and, at the end,
    stopped), one per test."""
    with _app_client() as c:
        yield c


@pytest.fixture(scope="module")
def client() -> Any:
    """The app under a test client, one per test module."""
    return _app_client()


@pytest.fixture(scope="session")
def installed(tmp_path_factory) -> Any:
    """The tutorial plugin pip-installed into a private folder (once a session), on sys.path."""
    target = tmp_path_factory.mktemp("gridpath-install")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-build-isolation",
            "--quiet",
            "--no-index",
            "--target",
            str(target),
            str(GRIDPATH),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    sys.path.insert(0, str(target))
    try:
        yield target
    finally:
        sys.path.remove(str(target))


@pytest.fixture
def gridpath(installed):
    """The installed package, its hooks registered with searchkit for one test."""
    import searchkit_gridpath.plugin as plugin

    pm = get_plugin_manager()
    registered = pm.get_plugin("gridpath") is None
    if registered:
        pm.register(plugin, name="gridpath")
        registry_changed()
    try:
        import searchkit_gridpath
        import searchkit_gridpath.domain  # noqa: F401 - the modules the tests reach through the package
        import searchkit_gridpath.inversions  # noqa: F401
        import searchkit_gridpath.jps  # noqa: F401

        yield searchkit_gridpath
    finally:
        if registered:
            pm.unregister(name="gridpath")
            registry_changed()
