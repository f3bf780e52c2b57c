"""The n-puzzle tests' shared fixture: a private pattern-database cache."""

from __future__ import annotations

import pytest
from searchkit_npuzzle.pdb import cache as pdb_cache


@pytest.fixture
def private_pdb_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The databases a test builds go to one temporary cache of the test session (one per
    xdist worker), never the user's: a module opts in with
    ``pytestmark = pytest.mark.usefixtures("private_pdb_cache")``."""
    monkeypatch.setenv(pdb_cache.ENV_VAR, str(tmp_path_factory.getbasetemp() / "pdb-cache"))
