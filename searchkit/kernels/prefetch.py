"""A hint to the processor to bring an array element into cache ahead of its use.

The kernel templates call ``prefetch(a, i)``; a generated module binds that name to
`intrinsic()`, which issues LLVM's ``llvm.prefetch`` (read, keep in all cache levels) for
the address of ``a[i]``: it never faults, reads nothing into the program and changes no
result, so a kernel can ask for the hash-table entries of all of a state's children before
it probes the first, and their cache misses overlap instead of following one another.
Here `prefetch` is the plain version, which does nothing (numba is imported only by
`intrinsic`, when a kernel is compiled).
"""

from __future__ import annotations

from functools import cache
from typing import Any


def prefetch(a: Any, i: Any) -> None:
    """Nothing: the plain Python stand-in for the compiled hint (`intrinsic`)."""


@cache
def intrinsic() -> Any:
    """The compiled ``prefetch(a, i)`` (``a``: a one-dimensional array; ``i``: an integer
    index within it), a numba intrinsic."""
    from llvmlite import ir  # type: ignore[import-untyped]
    from numba.core import cgutils, types
    from numba.extending import intrinsic as numba_intrinsic

    @numba_intrinsic
    def prefetch(_typing: Any, a: Any, i: Any) -> Any:
        if not isinstance(a, types.Array) or a.ndim != 1 or not isinstance(i, types.Integer):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            array = context.make_array(signature.args[0])(context, builder, args[0])
            where = builder.gep(array.data, [args[1]])
            byte = ir.IntType(8).as_pointer()
            i32 = ir.IntType(32)
            fnty = ir.FunctionType(ir.VoidType(), [byte, i32, i32, i32])
            fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")  # type: ignore[no-untyped-call]
            builder.call(fn, [builder.bitcast(where, byte), i32(0), i32(3), i32(1)])
            return context.get_dummy_value()

        return types.void(a, i), codegen

    return prefetch
