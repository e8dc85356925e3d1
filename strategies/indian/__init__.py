"""Indian Rummy strategies: compiled kernels and their parameter declarations."""
