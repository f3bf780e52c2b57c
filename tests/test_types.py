"""mypy passes under `[tool.mypy]` in pyproject.toml: strict on the core's modules."""

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
    cache = ROOT / ".mypy_cache"  # kept between runs (ignored by git): a warm run takes a second or two
    done = subprocess.run([mypy, "--cache-dir", str(cache)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_package_says_it_is_typed():
    assert (ROOT / "searchkit" / "py.typed").is_file()
