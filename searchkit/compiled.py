"""What the plugins' compiled (numba) code shares: whether it may run here, one source
compiled or plain (`jit`), word of a compilation as it starts, and a weight as two small
integers.

Why here: the n-puzzle's IDA* and pattern-database builder and Sokoban's push search each
have a compiled kernel; one switch (`NO_NUMBA_ENV`) turns them all off, a rule written once
in numba's subset serves a compiled kernel and a Python search alike (`jit`), and each keeps
its bounds exact by weighing ``g`` and ``h`` with integers (`integer_weights`).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from importlib.util import find_spec
from typing import Any, TypeVar

from .errors import InputError

NO_NUMBA_ENV = "SEARCHKIT_NO_NUMBA"  # set to 1: the pure-Python code everywhere


def numba_available() -> bool:
    """Whether compiled kernels can run here (numba installed, `NO_NUMBA_ENV` not set), found
    without importing numba, which takes a while."""
    return not os.environ.get(NO_NUMBA_ENV) and find_spec("numba") is not None


F = TypeVar("F", bound=Callable[..., Any])


def jit(func: F | None = None, **options: Any) -> Any:
    """``func`` compiled by numba's ``njit(cache=True, **options)`` where compiled code can run
    (`numba_available`), else ``func`` itself, unchanged: one source in numba's subset that
    runs compiled or as plain Python.  Use bare (``@jit``) or with options (``@jit(inline=
    "always")``).  Numba is imported only when it is used; a compiled function's plain
    Python is its ``py_func``.  Its callees must be `jit` functions too (numba compiles only
    calls to compiled functions)."""

    def wrap(f: F) -> F:
        if not numba_available():
            return f
        from numba import njit

        return njit(cache=True, **options)(f)  # type: ignore[no-any-return]

    return wrap if func is None else wrap(func)


class Compiles:
    """What `compile_notices` saw: ``seconds`` numba spent compiling (outermost compilations,
    so a kernel compiling the functions it calls is counted once)."""

    def __init__(self) -> None:
        self.seconds = 0.0


@contextmanager
def compile_notices(tell: Callable[[str], None]) -> Iterator[Compiles]:
    """While active, ``tell(name)`` once, when numba starts compiling its first function (named)
    in this process: a compilation, not a load from numba's disk cache, which starts none.
    Yields a `Compiles` that adds up the compilations' seconds.  Imports numba (its import
    takes a while); nothing where compiled code cannot run."""
    compiles = Compiles()
    if not numba_available():
        yield compiles
        return
    import time

    from numba.core import event

    class Listener(event.Listener):
        told = False
        depth = 0
        began = 0.0

        def on_start(self, ev: Any) -> None:
            if self.depth == 0:
                self.began = time.perf_counter()
            self.depth += 1
            if not self.told:
                self.told = True
                dispatcher = (ev.data or {}).get("dispatcher")
                tell(getattr(getattr(dispatcher, "py_func", None), "__qualname__", "a kernel"))

        def on_end(self, ev: Any) -> None:
            self.depth -= 1
            if self.depth == 0:
                compiles.seconds += time.perf_counter() - self.began

    with event.install_listener("numba:compile", Listener()):
        yield compiles


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
