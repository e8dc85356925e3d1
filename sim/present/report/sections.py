"""The sections of a report, in order: the generic ones (summary, score distributions, end
reasons; they use only the game's result schema and the per-play columns every game has), then
the game's own (``Game.report_sections()``; protocol and shared helpers: sim.present.report.base)."""

from __future__ import annotations

from sim.present.report.distributions_section import DistributionsSection
from sim.present.report.ends_section import EndsSection
from sim.present.report.summary_section import SummarySection

GENERIC = (SummarySection(), DistributionsSection(), EndsSection())


def report_sections(game) -> list:
    """The sections of a report on ``game``: the generic ones, then the game's own
    (``game.report_sections()``), those joining a generic section included in the list too."""
    sections = [*GENERIC, *game.report_sections()]
    keys = [s.key for s in sections]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        raise ValueError(f"report sections of {game.name}: duplicate keys {dup}")
    generic = {s.key for s in GENERIC}
    for s in sections:
        if getattr(s, "joins", "") and s.joins not in generic:
            raise ValueError(f"report section {s.key!r} joins {s.joins!r}, not a generic section")
    return sections


__all__ = ["SummarySection", "DistributionsSection", "EndsSection", "GENERIC", "report_sections"]
