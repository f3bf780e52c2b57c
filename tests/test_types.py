"""The tree type-checks under `[tool.mypy]` in pyproject.toml: strict on the core, the rest without errors."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_nothing():
    mypy = shutil.which("mypy", path=str(Path(sys.executable).parent)) or shutil.which("mypy")
    if mypy is None:
        pytest.fail("mypy is not installed: pip install -e '.[test]'")
    # the targets and the strictness come from pyproject.toml; the cache (.mypy_cache) keeps reruns fast
    done = subprocess.run([mypy], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
