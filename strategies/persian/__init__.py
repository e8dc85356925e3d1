"""Persian Rummy strategies: compiled kernels, their dispatch and parameter declarations."""
