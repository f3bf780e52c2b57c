"""Where the project's files are, for the tests in every folder below ``tests/``."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]  # the checkout
CONFIGS = ROOT / "configs"  # the benchmark suites
GRIDPATH = ROOT / "plugins" / "gridpath"  # the tutorial plugin's distribution
