"""The tree stays clean: ruff's lint and format rules and vulture's dead-code check (pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ruff(*args: str) -> subprocess.CompletedProcess:
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.fail("ruff is not installed: pip install -e '.[test]'")
    return subprocess.run([ruff, *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_ruff_finds_nothing():
    done = _ruff("check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_tree_is_formatted():
    done = _ruff("format", "--check", "--no-cache", ".")
    assert done.returncode == 0, "run `ruff format .`:\n" + done.stdout + done.stderr


def test_vulture_finds_no_dead_code():
    """`[tool.vulture]` in pyproject.toml: code never used anywhere, tests included, fails."""
    vulture = shutil.which("vulture", path=str(Path(sys.executable).parent)) or shutil.which("vulture")
    if vulture is None:
        pytest.fail("vulture is not installed: pip install -e '.[test]'")
    done = subprocess.run([vulture], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, "dead code (remove it, or teach [tool.vulture] a framework's name):\n" + done.stdout
