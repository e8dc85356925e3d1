"""The CPU cycle counter for the profile scripts (profile_persian.py, profile_indian.py):
read inside compiled code around each part of a deal, so the parts of one deal can be
timed without leaving the kernel."""

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def ticks(typingctx):
    """The CPU cycle counter (uint64), LLVM's ``readcyclecounter``."""
    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.readcyclecounter")
        return builder.call(fn, [])
    return types.uint64(), codegen


@njit
def timer_cost(reps):
    """One timed segment's own cost: the least ticks of an empty segment over ``reps`` tries."""
    best = np.uint64(1 << 62)
    for _ in range(reps):
        t = ticks()
        d = ticks() - t
        if d < best:
            best = d
    return best
