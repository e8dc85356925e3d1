"""Indian Rummy (RULES.md Part 2, I1-I9): rules kernels, engine, logs."""
