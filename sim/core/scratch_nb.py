"""Scratch arrays on the stack for compiled kernels that run without reference counting.

``stack_int64(n)`` (``n`` a compile-time constant) gives an ``int64[n]`` C array whose
memory is the calling function's own stack frame: no allocation, no reference count, so
a kernel compiled with ``_nrt=False`` can have a work space of its own, and a kernel
called millions of times (the Indian solver, once per hand) pays nothing to get one.
The array lives as long as the function that called ``stack_int64``: it may be passed
down to callees, never returned or stored. Its contents start undefined.
Under ``NUMBA_DISABLE_JIT=1`` it is a plain ``np.empty``.
"""

import numpy as np
from numba import config
from numba.core import cgutils, types
from numba.core.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array


@intrinsic
def stack_int64(typingctx, n):
    """An int64[n] C array in the caller's stack frame (``n`` a literal or global constant)."""
    if not isinstance(n, types.IntegerLiteral):
        return None
    size = n.literal_value
    if size <= 0:
        return None
    array_type = types.Array(types.int64, 1, "C")

    def codegen(context, builder, signature, args):
        intp = context.get_value_type(types.intp)
        length = intp(size)
        # alloca_once places the buffer in the entry block: one buffer per call, even in a loop
        data = cgutils.alloca_once(builder, context.get_data_type(types.int64), size=length)
        array = make_array(array_type)(context, builder)
        itemsize = intp(8)
        populate_array(array, data=data, shape=cgutils.pack_array(builder, [length]),
                       strides=cgutils.pack_array(builder, [itemsize]), itemsize=itemsize,
                       meminfo=None)
        return array._getvalue()

    return array_type(n), codegen


if config.DISABLE_JIT:

    def stack_int64(n):  # noqa: F811
        """Plain Python: an uninitialised int64[n] array."""
        return np.empty(n, dtype=np.int64)
