"""What the plugins' compiled (numba) code shares: whether it may run here, and a weight as
two small integers.

Why here: the n-puzzle's IDA* and pattern-database builder and Sokoban's push search each
have a compiled kernel; one switch (`NO_NUMBA_ENV`) turns them all off, and each keeps its
bounds exact by weighing ``g`` and ``h`` with integers (`integer_weights`).
"""

from __future__ import annotations

import math
import os
from fractions import Fraction
from importlib.util import find_spec

from .errors import InputError

NO_NUMBA_ENV = "SEARCHKIT_NO_NUMBA"  # set to 1: the pure-Python code everywhere


def numba_available() -> bool:
    """Whether compiled kernels can run here (numba installed, `NO_NUMBA_ENV` not set), found
    without importing numba, which takes a while."""
    return not os.environ.get(NO_NUMBA_ENV) and find_spec("numba") is not None


def integer_weights(weight: float, denominator: int = 1000, name: str = "weight") -> tuple[int, int]:
    """``(wg, wh)``: integers with ``wh / wg`` within ``1 / denominator`` of ``weight`` and never
    above it (a bound on ``wg * g + wh * h`` stays an exact integer and promises no less than
    asked); `InputError` naming ``name`` unless ``weight`` is a finite number of at least 1."""
    if not weight >= 1 or weight == float("inf"):  # also refuses NaN
        raise InputError(f"{name} must be a finite number of at least 1 (got {weight})")
    ratio = Fraction(weight).limit_denominator(denominator)
    if ratio > weight:
        ratio = Fraction(math.floor(weight * denominator), denominator)
    return ratio.denominator, ratio.numerator
