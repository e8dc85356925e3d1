"""Persian Rummy strategies: compiled kernels and their declarations (names, ids, parameters, kernels)."""
