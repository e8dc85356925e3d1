"""How a tuning budget is spent: successive-halving brackets, then the validation.

The budget counts plays (deals played by the engine: every seating of every deal index
of every pairing), search and validation together, and is never exceeded.

* Validation: ``validation_share`` of the budget. The best candidate, the baseline (the
  strategy's defaults) and any ``compare`` specs each play the whole field, plus the best
  head to head against each of the others, on ``validation_deals`` fresh deal indices
  (the validation seed, never used by the search).
* Search: brackets of successive halving. A bracket asks the optimizer for
  ``eta ** (rungs - 1)`` candidates and plays them all on deals ``0 .. d_0 - 1``; the best
  ``1 / eta`` of them (fewer when racing drops one that is significantly worse than the
  leader, paired) go on to deals ``d_0 .. d_1 - 1`` and so on, ``d_r = d_0 * eta ** r``, until
  the bracket's last survivors have played ``d_(rungs-1)`` deal indices. Every bracket uses
  the same deal indices and seed, so every candidate that reached rung r has a value on
  exactly the deals ``0 .. d_r - 1``: values at one rung are paired comparisons.
* ``d_0`` comes from the budget (about ``target_brackets`` brackets) unless given; brackets
  run while the remaining search budget covers a whole bracket at its planned (no racing) cost.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sim.apps.tune.space import TuneError

DEFAULT_BRACKETS = 8


@dataclass(frozen=True)
class Plan:
    budget: int  # plays, search + validation
    eta: int
    rungs: int
    min_deals: int  # d_0
    deals_per_game: int
    plays_per_candidate_deal: int  # one candidate against the whole field, per deal index
    validation_deals: int
    validation_plays: int
    target_brackets: int

    @property
    def candidates(self) -> int:
        """Candidates per bracket."""
        return self.eta ** (self.rungs - 1)

    @property
    def rung_deals(self) -> list[int]:
        """Cumulative deal indices a survivor of rung r has played: d_r = d_0 * eta ** r."""
        return [self.min_deals * self.eta ** r for r in range(self.rungs)]

    @property
    def rung_sizes(self) -> list[int]:
        """Candidates playing rung r at most (racing may drop more)."""
        out = [self.candidates]
        for _ in range(1, self.rungs):
            out.append(max(1, math.ceil(out[-1] / self.eta)))
        return out

    @property
    def bracket_plays(self) -> int:
        """Plays of one bracket without racing drops (its most)."""
        d = [0, *self.rung_deals]
        return self.plays_per_candidate_deal * sum(n * (d[r + 1] - d[r]) for r, n in enumerate(self.rung_sizes))

    @property
    def search_budget(self) -> int:
        return self.budget - self.validation_plays

    def describe(self) -> str:
        d = self.rung_deals
        return (f"{self.candidates} candidates per bracket, rungs of {', '.join(f'{x:,}' for x in d)} deal indices "
                f"(eta {self.eta}), at most {self.bracket_plays:,} plays per bracket, about "
                f"{self.search_budget // self.bracket_plays} brackets in {self.search_budget:,} search plays; "
                f"validation {self.validation_deals:,} deal indices ({self.validation_plays:,} plays)")


def make_plan(budget: int, *, plays_per_candidate_deal: int, validation_plays_per_deal: int, deals_per_game: int,
              eta: int = 3, rungs: int = 4, min_deals: int = 0, brackets: int = 0,
              validation_share: float = 0.2) -> Plan:
    """The plan for ``budget`` plays (see module doc); errors say what to change."""
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise TuneError(f"budget must be a positive number of plays, got {budget!r}")
    if isinstance(eta, bool) or not isinstance(eta, int) or eta < 2:
        raise TuneError(f"eta must be an integer >= 2 (the halving factor), got {eta!r}")
    if isinstance(rungs, bool) or not isinstance(rungs, int) or not 1 <= rungs <= 8:
        raise TuneError(f"rungs must be an integer in 1..8, got {rungs!r}")
    if not (isinstance(validation_share, (int, float)) and 0 < validation_share < 1):
        raise TuneError(f"validation share must be in (0, 1), got {validation_share!r}")
    for name, v in (("min_deals", min_deals), ("brackets", brackets)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise TuneError(f"{name} must be a non-negative integer (0: from the budget), got {v!r}")
    dpg = deals_per_game
    vdeals = int(budget * validation_share) // validation_plays_per_deal // dpg * dpg
    if vdeals < max(2, dpg):
        raise TuneError(f"budget {budget:,}: its validation share ({validation_share:g}) does not cover two deal "
                        f"indices of the validation ({validation_plays_per_deal} plays each); raise the budget")
    vplays = vdeals * validation_plays_per_deal
    plan = Plan(budget, eta, rungs, max(dpg, 2), dpg, plays_per_candidate_deal, vdeals, vplays,
                brackets or DEFAULT_BRACKETS)
    unit = plan.bracket_plays / plan.min_deals  # bracket plays per deal index of d_0
    if min_deals:
        if min_deals % dpg:
            raise TuneError(f"min_deals {min_deals} must be a multiple of deals_per_game ({dpg})")
        d0 = min_deals
    else:
        d0 = int(plan.search_budget / (plan.target_brackets * unit)) // dpg * dpg
        if d0 < max(2, dpg):
            d0 = max(2, dpg)
    plan = Plan(budget, eta, rungs, d0, dpg, plays_per_candidate_deal, vdeals, vplays, plan.target_brackets)
    if plan.bracket_plays > plan.search_budget:
        raise TuneError(f"budget {budget:,}: one bracket ({plan.candidates} candidates, rungs up to "
                        f"{plan.rung_deals[-1]:,} deal indices) needs {plan.bracket_plays:,} plays but the search has "
                        f"{plan.search_budget:,}; raise the budget or lower --min-deals, --rungs or --eta")
    return plan
