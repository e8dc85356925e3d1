"""Bit tricks for compiled kernels, each one CPU instruction: population count and the
index of the lowest set bit of an int64.

Numba has no ``popcount``; LLVM's ``ctpop`` and ``cttz`` are one instruction on every
x86-64 and aarch64 CPU, where a loop over the bits (or a binary search for the lowest
one) costs a branch per step that mispredicts on random hands. Under
``NUMBA_DISABLE_JIT=1`` (plain Python, the bench's JIT speed-up run) the intrinsics
cannot run, so plain-Python equivalents take their place.
"""

from numba import config
from numba.core import types
from numba.core.extending import intrinsic
from numba.cpython.unsafe.numbers import trailing_zeros


@intrinsic
def _ctpop(typingctx, x):
    """LLVM's ctpop of an integer."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


popcount = _ctpop
#: index of the lowest set bit of a non-zero integer (LLVM's cttz; undefined for 0)
lowest_bit_index = trailing_zeros

if config.DISABLE_JIT:
    _U64 = (1 << 64) - 1

    def popcount(x):  # noqa: F811
        """Number of set bits of the 64-bit pattern of ``x``."""
        return (int(x) & _U64).bit_count()

    def lowest_bit_index(x):  # noqa: F811
        """Index of the lowest set bit of a non-zero ``x``."""
        x = int(x) & _U64
        return (x & -x).bit_length() - 1
