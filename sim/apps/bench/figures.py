"""A game's own bench figures (``BenchPlan.figures``, e.g. a solver's hands/s): measured once
per run, kept in the JSON under each figure's key, one table row per variant."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sim.apps.bench.table import Row
from sim.apps.bench.targets import Target, target_mark
from sim.plugin.bench import BenchPlan


def measure_figures(plan: BenchPlan, quick: bool, say: Callable[[str], None]) -> dict[str, dict[str, float]]:
    """``{figure key: {variant: value}}`` of every figure of ``plan``, in plan order."""
    out = {}
    for fig in plan.figures:
        say(fig.progress)
        out[fig.key] = dict(fig.measure(quick))
    return out


def rounded(figures: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    """The figures as the JSON keeps them: 0.1 of a unit."""
    return {key: {k: round(float(v), 1) for k, v in by.items()} for key, by in figures.items()}


def figure_rows(result: dict, plan: BenchPlan, targets: Sequence[Target]) -> list[Row]:
    """The table rows of the figures in ``result``, each variant with the figure's target."""
    rows = []
    for fig in plan.figures:
        for variant, v in result.get(fig.key, {}).items():
            rows.append((fig.row.format(variant=variant), f"{v:,.0f} {fig.unit}", "",
                         *target_mark(result, fig.key, targets)))
    return rows
