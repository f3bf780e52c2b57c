"""Skip marks shared by the test modules, each with a reason that says what is true here."""

from __future__ import annotations

import os

import pytest

from searchkit.compiled import NO_NUMBA_ENV, numba_available


def _why_not_compiled() -> str:
    if os.environ.get(NO_NUMBA_ENV):
        return f"{NO_NUMBA_ENV} is set: the compiled code is switched off"
    return "numba is not installed (pip install '.[fast]')"


# for the tests of compiled (numba) code: they cannot run where it is off
needs_numba = pytest.mark.skipif(not numba_available(), reason=_why_not_compiled())
