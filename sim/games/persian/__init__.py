"""Persian Rummy (RULES.md Part 1): compiled engine kernels and their Python wrappers."""
