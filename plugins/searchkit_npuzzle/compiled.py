"""Whether the compiled n-puzzle code (numba) can run here, found without importing it.

The IDA* engines (`fastida`) and the pattern-database builder (`pdb.build`) both choose their
compiled path by it; importing numba itself takes a while, so only its presence is checked.
"""

from __future__ import annotations

import os
from importlib.util import find_spec

DISABLE_ENV = "SEARCHKIT_NO_NUMBA"  # set to 1 to force the pure-Python search and builder


def compiled_kernel_available() -> bool:
    """Whether `kernel_numba` can run here (numba installed, not disabled) - found without
    importing numba, which takes a while."""
    return not os.environ.get(DISABLE_ENV) and find_spec("numba") is not None
