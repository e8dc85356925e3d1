"""rummy-sim: a numba-compiled Monte Carlo toolkit for analysing rummy strategies."""

__version__ = "0.1.0"
