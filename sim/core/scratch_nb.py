"""Scratch arrays on the stack for compiled kernels: no allocation, no reference count.

``stack_int64(n)`` / ``stack_float64(n)`` (``n`` a compile-time constant: a literal or a
module-level int) give a 1-d C array whose memory is the calling function's own stack
frame. A kernel compiled with ``_nrt=False`` can so have a work space of its own, and a
kernel called millions of times (the Indian solver once per hand, a strategy once per
decision) pays nothing to get one. The array lives as long as the function that called
``stack_*``: it may be passed down to callees, never returned or stored. Its contents
start undefined. Under ``NUMBA_DISABLE_JIT=1`` it is a plain ``np.empty``.
"""

import numpy as np
from numba import config
from numba.core import cgutils, types
from numba.core.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array


def _stack_array(dtype):
    """An intrinsic giving a ``dtype[n]`` C array in the caller's stack frame."""

    def typer(typingctx, n):
        if not isinstance(n, types.IntegerLiteral) or n.literal_value <= 0:
            return None
        size = n.literal_value
        array_type = types.Array(dtype, 1, "C")

        def codegen(context, builder, signature, args):
            intp = context.get_value_type(types.intp)
            length = intp(size)
            # alloca_once places the buffer in the entry block: one buffer per call, even in a loop
            data = cgutils.alloca_once(builder, context.get_data_type(dtype), size=length)
            array = make_array(array_type)(context, builder)
            itemsize = intp(context.get_abi_sizeof(context.get_data_type(dtype)))
            populate_array(array, data=data, shape=cgutils.pack_array(builder, [length]),
                           strides=cgutils.pack_array(builder, [itemsize]), itemsize=itemsize,
                           meminfo=None)
            return array._getvalue()

        return array_type(n), codegen

    typer.__name__ = f"stack_{dtype}"
    return intrinsic(typer)


stack_int64 = _stack_array(types.int64)
stack_float64 = _stack_array(types.float64)

if config.DISABLE_JIT:

    def stack_int64(n):  # noqa: F811
        """Plain Python: an uninitialised int64[n] array."""
        return np.empty(n, dtype=np.int64)

    def stack_float64(n):  # noqa: F811
        """Plain Python: an uninitialised float64[n] array."""
        return np.empty(n, dtype=np.float64)
