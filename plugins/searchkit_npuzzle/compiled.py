"""Whether the compiled n-puzzle code (numba) can run here, found without importing it.

The IDA* engines (`fastida`) and the pattern-database builder (`pdb.build`) both choose their
compiled path by it; importing numba itself takes a while, so only its presence is checked.
"""

from __future__ import annotations

from searchkit import NO_NUMBA_ENV as DISABLE_ENV  # set to 1 to force the pure-Python search and builder
from searchkit import numba_available as compiled_kernel_available  # whether the compiled searches can run here

__all__ = ["DISABLE_ENV", "compiled_kernel_available"]
