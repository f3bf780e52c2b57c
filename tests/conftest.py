"""Shared fixtures: an infinite problem that no engine can finish, the web app under a test
client, and the gridpath tutorial plugin installed as a user would install it."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from searchkit.plugins import get_plugin_manager, registry_changed

GRIDPATH = Path(__file__).parents[1] / "plugins" / "gridpath"  # the tutorial plugin's distribution


class Counter:
    """An infinite space ``n -> n + 1, n + 2`` whose goal ``-1`` no forward move reaches.

    The goal has an infinite chain of predecessors too, so bidirectional search cannot
    end by exhausting either side: only a limit stops any engine on it.
    """

    def initial_state(self) -> int:
        return 0

    def is_goal(self, state: int) -> bool:
        return state == -1

    def successors(self, state: int):
        return [("+1", state + 1, 1), ("+2", state + 2, 1)]

    def heuristic(self, state: int) -> float:
        return state % 3  # arbitrary but non-constant, so A*, greedy and IDA* order by it

    def goal_states(self):
        return [-1]

    def predecessors(self, state: int):
        if state < 0:
            return [("-1", state - 1, 1)]
        return [(f"+{d}", state - d, 1) for d in (1, 2) if state - d >= 0]


@pytest.fixture
def counter() -> Counter:
    return Counter()


@pytest.fixture(scope="module")
def client() -> Any:
    """`searchkit serve`'s app under Starlette's test client, one per test module."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Starlette's note about httpx versions
        from starlette.testclient import TestClient

        from searchkit.serve.app import build_app

        return TestClient(build_app())


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
