"""Persian Rummy decisions: from a deal log, a ``Position`` or a seat's observation to an analysis.

A :class:`PersianDecision` holds what the deciding seat may see (its observation, RULES.md
P10: own hand, pile, table, hand and stock sizes, the cards each seat took from the
pile), the decision (draw, play or discard), its legal move rows and, when known, the
move actually played. Nothing else of the true state is kept, so nothing else can
leak into the analysis.

``analyze`` samples worlds from that observation only (sim/games/persian/determinize_nb,
mc_search's sampler: the unseen cards dealt at random to the hidden hands and the stock,
consistently with every public fact; no inference from what opponents did or did not
take), plays every candidate in the same worlds and rolls out with a policy in every
seat (sim/games/persian/decisions_nb.py), and compares the candidates paired
(sim/apps/analysis/stats.py) in a race with early elimination (sim/apps/analysis/racing.py).

Turns are numbered from 1 as ``rummy-sim show`` prints them (T1, T2, ...).
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
from numba.core.errors import NumbaExperimentalFeatureWarning

from sim.apps.analysis.racing import race
from sim.apps.analysis.result import DecisionAnalysis
from sim.apps.analysis.stats import candidate_frame
from sim.apps.analysis.mcmc import INFER_CHAINS, INFER_METHOD, check_infer_method
from sim.apps.analysis.inferred import Evidence, by_chains, by_weights, sampler_words
from sim.apps.analysis.weighted import AnalysisInputError, check_infer_input
from sim.games.persian import enums as E
from sim.games.persian.cards import card_name, mask_to_names
from sim.games.persian.decisions_nb import play_states, play_worlds
from sim.games.persian.engine import Table
from sim.games.persian.infer import History, chain_worlds, history_of, worlds_loglik
from sim.games.persian.log import validate_log
from sim.games.persian.position import Position, row_to_move
from sim.games.persian.rules import RuleOptions
from sim.games.persian.state_nb import legal_moves
from sim.plugin.logfile import read_deal
from sim.plugin.runs import check_seed, set_threads
from sim.plugin.specs import StrategySpec

warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)  # function slots, as the engine

DECISIONS = E.DECISION_NAMES  # ("draw", "play", "discard")


def policy_args(specs: Sequence[str | StrategySpec] | str | StrategySpec):
    """(names per seat, parameter matrix, function tuple) of a play-out policy: one spec for every
    seat, two (team 0, team 1) or four, as a table is given (sim.games.persian.engine.Table). The
    play-out kernel calls each seat through its function slot (a user strategy's function or the
    kernel a built-in names, sim.plugin.strategy.seat_function), so it never links the strategies."""
    table = Table.of(specs)
    _, params, fns = table.kernel_args()
    return table.names(), params, fns
SAMPLER_TEXT = ("hidden cards dealt uniformly at random among the hidden hands and the stock, consistent with the "
                "seat's view (own hand, pile, table, hand and stock sizes, cards publicly taken from the pile and "
                "still held); no inference from what opponents chose to take, keep or discard")


WORLDS_UNIFORM = "worlds uniform (every deal of the hidden cards consistent with the view equally likely)"
INFER_TREMBLE = 0.5  # --tremble: the inferred policy's chance of playing any legal move at random
INFER_ESS_FLOOR = 10.0  # --ess-floor: below this effective sample size the inference has failed


def describe_row(r, obs: np.ndarray | None = None) -> str:
    """A legal move row in words ("take 3 cards from the pile at depth 2 (target QS)", "meld JK JK JK", ...)."""
    kind = int(r[0])
    if kind == E.MV_STOCK:
        return "draw from the stock"
    if kind == E.MV_TAKE:
        d = int(r[1])
        above = mask_to_names(int(r[3]) & ~(1 << int(r[2])))
        extra = f", with {' '.join(above)}" if above else ""
        return f"take at depth {d} (target {card_name(int(r[2]))}{extra})"
    if kind == E.MV_PASS:
        return "pass"
    if kind == E.MV_MELD:
        return "meld " + " ".join(mask_to_names(int(r[1])))
    if kind == E.MV_LAYOFF:
        return f"lay off {card_name(int(r[1]))} onto meld {int(r[2])}"
    if kind == E.MV_STOP:
        return "stop playing, then discard"
    if kind == E.MV_DISCARD:
        return f"discard {card_name(int(r[1]))}"
    raise ValueError(f"unknown move kind {kind}")


@dataclass
class PersianDecision:
    """One decision of one seat, as that seat sees it (P10)."""

    obs: np.ndarray  # int64[OBS_SIZE]: the deciding seat's observation (O_DECISION set)
    rows: np.ndarray  # (n, MOVE_COLS) legal move rows, engine order
    played: int | None = None  # index in ``rows`` of the move actually played
    rules: RuleOptions = field(default_factory=RuleOptions)
    deal: int | None = None
    turn: int | None = None  # 1-based, as rummy-sim show numbers turns
    where: str = ""  # how to name this decision in messages
    #: the other seats' public choices before this decision (sim/games/persian/infer.py; a logged
    #: decision only): what ``--infer`` reads; public facts only, like ``obs``
    history: History | None = None

    @property
    def decision(self) -> int:
        return int(self.obs[E.O_DECISION])

    @property
    def seat(self) -> int:
        return int(self.obs[E.O_SEAT])

    def labels(self) -> list[str]:
        return [describe_row(r) for r in self.rows]

    def situation(self) -> dict:
        """The seat's view in words and numbers (everything here is public to it, P10)."""
        o = self.obs
        seat = self.seat
        pile = [card_name(int(c)) for c in o[E.O_PILE: E.O_PILE + o[E.O_PILE_N]][::-1]]
        melds = [mask_to_names(int(o[E.O_MELD_MASK + k])) for k in range(o[E.O_N_MELDS])]
        d = {
            "game": "persian",
            "deal": self.deal,
            "turn": self.turn,
            "seat": seat,
            "team": seat % 2,
            "decision": DECISIONS[self.decision],
            "hand": mask_to_names(int(o[E.O_HAND])),
            "pile_top_first": pile,
            "table": melds,
            "stock": int(o[E.O_STOCK_N]),
            "hand_sizes": [int(o[E.O_HAND_SIZES + s]) for s in range(E.N_SEATS)],
            "target": card_name(int(o[E.O_TARGET])) if o[E.O_TARGET] >= 0 else None,
            "played": describe_row(self.rows[self.played]) if self.played is not None else None,
        }
        where = f"deal {self.deal}, turn {self.turn}" if self.deal is not None else "position"
        d["title"] = f"{where}: seat {seat} {d['decision']} ({len(self.rows)} legal moves)"
        return d

    # -- construction ------------------------------------------------------------------------------

    @classmethod
    def from_position(cls, pos: Position, played: tuple | None = None, deal: int | None = None,
                      turn: int | None = None) -> "PersianDecision":
        """The decision of the seat to move in ``pos`` (its observation only is kept);
        ``played`` is the move actually made, as a Position move tuple, if known."""
        if pos.phase == "over":
            raise AnalysisInputError("the deal is over: there is no decision to analyse")
        rows = pos.legal_rows()
        idx = None
        if played is not None:
            moves = [row_to_move(r) for r in rows]
            if played not in moves:
                raise AnalysisInputError(f"the move played {played!r} is not legal here")
            idx = moves.index(played)
        return cls(pos.observation(), rows, idx, pos.rules, deal, turn)

    @classmethod
    def from_observation(cls, obs: np.ndarray, played: int | None = None, rules=None) -> "PersianDecision":
        """The decision a strategy faces given ``obs`` (O_DECISION says which): the legal moves
        follow from the seat's own hand and the public slots alone."""
        obs = np.ascontiguousarray(obs, dtype=np.int64)
        if obs.shape != (E.OBS_SIZE,):
            raise AnalysisInputError(f"an observation has {E.OBS_SIZE} slots, got shape {obs.shape}")
        rules = rules if isinstance(rules, RuleOptions) else (
            RuleOptions.from_dict(rules) if rules is not None else _rules_of(obs))
        st = np.zeros(E.ST_SIZE, dtype=np.int64)
        st[: E.OBS_SIZE] = obs
        st[E.S_HANDS + obs[E.O_SEAT]] = obs[E.O_HAND]
        moves = np.zeros((E.MAX_MOVES, E.MOVE_COLS), dtype=np.int64)
        n = legal_moves(st, int(obs[E.O_DECISION]), moves)
        return cls(obs.copy(), moves[:n].copy(), played, rules)


def _rules_of(obs: np.ndarray) -> RuleOptions:
    arr = obs[E.O_RULES: E.O_RULES + E.N_RULES]
    return RuleOptions.from_dict({
        "last_card": "discard" if arr[E.R_LAST_CARD] == E.LAST_CARD_DISCARD else "meld",
        "out_bonus": int(arr[E.R_OUT_BONUS]),
        "four_of_a_kind_double": bool(arr[E.R_FOUR_DOUBLE]),
        "deals_per_game": int(arr[E.R_DEALS_PER_GAME]),
        "turn_cap": int(arr[E.R_TURN_CAP]),
    })


# --- from a deal log ----------------------------------------------------------------------------------


def _draw_move(draw) -> tuple:
    if draw == "pass":
        return ("pass",)
    if "stock" in draw:
        return ("stock",)
    return ("take", int(draw["depth"]))


def _play_move(play: dict) -> tuple:
    if "meld" in play:
        return ("meld", tuple(sorted(play["meld"])))
    return ("layoff", play["layoff"], int(play["onto"]))


def turn_moves(turn: dict) -> list[tuple[str, tuple]]:
    """The moves of one logged turn in order, each with its decision name."""
    out = [("draw", _draw_move(turn["draw"]))]
    if turn["draw"] == "pass":
        return out
    out += [("play", _play_move(p)) for p in turn["plays"]]
    if turn["discard"] is not None:
        out += [("play", ("stop",)), ("discard", ("discard", turn["discard"]))]
    return out


def start_position(log: dict) -> Position:
    """The position right after the deal of a ``rummy-log/1`` Persian deal."""
    return Position(log["hands"], log["discard"], log["stock"], dealer=int(log["dealer"]),
                    rules=RuleOptions.from_dict(log.get("rules") or {}))


def _apply(pos: Position, phase: str, move: tuple, where: str) -> None:
    if pos.phase != phase:
        raise AnalysisInputError(f"{where}: the log has a {phase} move {move!r} but the deal is in its {pos.phase} phase")
    try:
        pos.apply(move)
    except ValueError as e:
        raise AnalysisInputError(f"{where}: the log's move {move!r} cannot be replayed: {e}") from None


def decision_from_log(log: dict, turn: int, decision: str = "draw", index: int = 0) -> PersianDecision:
    """The decision of turn ``turn`` (1-based) of a logged deal: its draw, its ``index``-th play
    decision (0: the first; the stop before the discard is one too) or its discard.

    Raises AnalysisInputError naming the deal, the turn and what is wrong: a turn or decision the
    deal does not have, or a forced decision (a single legal move: nothing to compare).
    """
    deal = log.get("deal")
    turns = log["turns"]
    if decision not in DECISIONS:
        raise AnalysisInputError(f"decision must be one of {', '.join(DECISIONS)}, got {decision!r}")
    if not isinstance(turn, (int, np.integer)) or not 1 <= turn <= len(turns):
        raise AnalysisInputError(f"deal {deal} has turns 1..{len(turns)}; turn {turn} does not exist")
    if index < 0:
        raise AnalysisInputError(f"the play index must be >= 0, got {index}")
    pos = start_position(log)
    before = []
    for t in range(1, turn):
        for phase, move in turn_moves(turns[t - 1]):
            _apply(pos, phase, move, f"deal {deal}, turn {t}")
            before.append(move)
    where = f"deal {deal}, turn {turn} (seat {turns[turn - 1]['seat']})"
    moves = turn_moves(turns[turn - 1])
    wanted = [i for i, (phase, _) in enumerate(moves) if phase == decision]
    if decision == "play":
        wanted = wanted[index:index + 1]
    if not wanted:
        why = {"draw": "",
               "play": f"it has {sum(p == 'play' for p, _ in moves)} play decisions (index {index} asked)",
               "discard": "the player passed or went out, so there is no discard"}[decision]
        raise AnalysisInputError(f"{where}: no {decision} decision: {why}")
    k = wanted[0]
    for phase, move in moves[:k]:
        _apply(pos, phase, move, where)
        before.append(move)
    phase, played = moves[k]
    if pos.phase != phase:
        raise AnalysisInputError(f"{where}: the deal is in its {pos.phase} phase, not {phase}")
    dec = PersianDecision.from_position(pos, played, deal, turn)
    dec.where = where
    dec.history = history_of(start_position(log), before, dec.seat)
    if len(dec.rows) < 2:
        raise AnalysisInputError(f"{where}: the {decision} decision is forced (its only legal move: "
                                 f"{describe_row(dec.rows[0]) if len(dec.rows) else 'none'}); nothing to compare")
    return dec


def decisions_in(log: dict, phases: Sequence[str] = DECISIONS):
    """Every unforced decision of a logged deal whose phase is in ``phases``, in order, replaying
    the deal once (a PersianDecision each, with the move played, its turn and play index)."""
    pos = start_position(log)
    deal = log.get("deal")
    for t, turn in enumerate(log["turns"], 1):
        k = 0
        for phase, move in turn_moves(turn):
            if phase in phases and pos.phase == phase:
                rows = pos.legal_rows()
                if len(rows) >= 2:
                    dec = PersianDecision.from_position(pos, move, deal, t)
                    dec.where = f"deal {deal}, turn {t} (seat {turn['seat']}), {phase}" + (
                        f" #{k}" if phase == "play" else "")
                    yield dec
            k += phase == "play"
            _apply(pos, phase, move, f"deal {deal}, turn {t}")


# --- the analysis --------------------------------------------------------------------------------------


def later_deals(deal: int | None, rules: RuleOptions, horizon: str) -> int:
    """Deals still to come in the game after deal ``deal`` (P9: deals 2g .. 2g+1 form game g)."""
    if horizon == "deal":
        return 0
    if horizon != "game":
        raise AnalysisInputError(f"horizon must be 'deal' or 'game', got {horizon!r}")
    if deal is None:
        raise AnalysisInputError("horizon 'game' needs the deal's index (its place in the game)")
    return rules.deals_per_game - 1 - int(deal) % rules.deals_per_game


def analyze(dec: PersianDecision, samples: int = 1000, policy: str | Sequence[str] = "expert", seed: int = 0,
            horizon: str = "deal", batch: int = 100, alpha: float = 0.05, racing: bool = True, top: int = 0,
            min_samples: int | None = None, threads: int | None = None, progress=None,
            infer: str | None = None, tremble: float = INFER_TREMBLE, ess_floor: float = INFER_ESS_FLOOR,
            infer_method: str = INFER_METHOD, chains: tuple[int, int, int] = INFER_CHAINS) -> DecisionAnalysis:
    """Compare every legal move of ``dec`` (or the ``top`` best after a pilot batch, the move
    played always kept) over ``samples`` sampled worlds; see the module docstring.

    ``policy``: a strategy spec for every seat (or 2 / 4 specs, as a table) playing the
    rest of the deal (``horizon='game'``: also the game's later deals, fresh cards).
    ``infer``: a strategy spec; the worlds are then weighted by how likely they make the other
    seats' recorded draws and discards under it (sim/games/persian/infer.py, ``tremble`` its
    chance of any legal move); the race is off (every candidate in every world) and an effective
    sample size below ``ess_floor`` stops the analysis with AnalysisInputError (no fallback).
    ``infer_method``: "weights" (importance weights) or "mcmc" (equal-weight worlds of chains,
    ``chains`` = (chains, burn-in, thinning); infer.chain_worlds).
    """
    if len(dec.rows) < 2:
        raise AnalysisInputError(f"{dec.where or 'this decision'} is forced: one legal move, nothing to compare")
    if samples < 2:
        raise AnalysisInputError(f"samples must be at least 2, got {samples}")
    seed = check_seed(seed)
    names, params, fns = policy_args(policy)
    extra = later_deals(dec.deal, dec.rules, horizon)
    set_threads(threads)
    obs = np.ascontiguousarray(dec.obs, dtype=np.int64)
    rows = np.ascontiguousarray(dec.rows, dtype=np.int64)
    weights, inference, states = _inferred(dec, obs, samples, seed, infer, tremble, ess_floor, infer_method, chains)
    if infer is not None:
        racing, top = False, 0

    def sample(cands, start, stop):
        out = np.zeros((stop - start, len(cands)), dtype=np.float64)
        worlds = np.arange(start, stop, dtype=np.int64)
        if states is None:
            play_worlds(obs, np.int64(dec.decision), np.ascontiguousarray(rows[cands]), worlds, np.int64(seed),
                        params, fns, np.int64(extra), out)
        else:
            play_states(obs, dec.decision, np.ascontiguousarray(rows[cands]), states[start:stop], worlds, seed,
                        params, fns, extra, out)
        if np.isnan(out).any():
            raise ValueError(f"rollout policy {'/'.join(dict.fromkeys(names))} answered with an illegal move "
                             "in a play-out")
        return out

    keep = () if dec.played is None else (dec.played,)
    t0 = time.perf_counter()
    rr = race(sample, len(rows), samples=samples, batch=min(batch, samples), alpha=alpha,
              min_samples=min_samples if min_samples is not None else min(samples, 2 * batch),
              keep=keep, top=top, racing=racing, progress=progress)
    secs = time.perf_counter() - t0
    labels = dec.labels()
    played_lab = dec.played
    frame = candidate_frame(rr.scores, labels, played_lab, rr.alive, weights=weights)
    if rr.pruned.any():
        frame = frame[~frame["move"].isin([labels[i] for i in np.flatnonzero(rr.pruned)])].reset_index(drop=True)
    assumptions = _assumptions(names, rr, samples, horizon, extra, seed, len(rows), batch, top, racing, alpha,
                               inference)
    return DecisionAnalysis(frame, dec.situation(), assumptions, rr.scores, secs, rr.stopped_early,
                            {"looks": rr.looks, "decisions_per_second": 1.0 / secs if secs > 0 else float("inf")})


def _assumptions(names, rr, samples: int, horizon: str, extra: int, seed: int, n_rows: int, batch: int, top: int,
                 racing: bool, alpha: float, inference: dict | None) -> dict:
    """What an analysis's answer rests on: policy, worlds (uniform or weighted), horizon, race, score."""
    out = {
        "policy": names[0] if len(set(names)) == 1 else names,
        "policy_in": "every seat, from the move analysed on (the deciding seat too)",
        "worlds": rr.worlds,
        "max_worlds": samples,
        "horizon": horizon + (f" (+{extra} later deal{'s' if extra != 1 else ''})" if extra else ""),
        "seed": seed,
        "sampler": SAMPLER_TEXT if inference is None else SAMPLER_TEXT.split("; no inference")[0]
        + sampler_words(inference),
        "worlds_are": WORLDS_UNIFORM if inference is None else inference["text"],
        "candidates": f"{n_rows} legal moves" + (f", {int((~rr.pruned).sum())} after a pilot of {batch} worlds "
                                                    f"(top {top} + the move played)" if rr.pruned.any() else ""),
        "race": (f"paired one-sided t bounds, Bonferroni over {max(1, int((~rr.pruned).sum()) - 1)} rivals x "
                 f"{-(-samples // min(batch, samples))} looks, alpha {alpha}" if racing else "off"),
        "score": "own team minus other team points (P8), per deal"
                 + (" summed over the rest of the game" if extra else ""),
    }
    if inference is not None:
        out["inference"] = {k: v for k, v in inference.items() if k != "text"}
    return out


def _inferred(dec, obs: np.ndarray, samples: int, seed: int, infer, tremble: float, ess_floor: float,
              infer_method: str, chains: tuple[int, int, int]):
    """(weights or None, inference description or None, worlds or None) of ``analyze``'s ``infer``
    arguments: nothing without ``infer``, importance weights (``infer_method`` "weights") or
    equal-weight chain worlds ("mcmc"), under ``infer`` (sim/games/persian/infer.py)."""
    if infer is None:
        return None, None, None
    check_infer_method(infer_method, chains)
    check_infer_input(dec.history, tremble)
    names, params, fns = policy_args(infer)
    hist = dec.history
    ev = Evidence(dec.where or "this decision", names[0] if len(set(names)) == 1 else "/".join(names),
                  len(hist.choices), "draws and discards", tremble)
    if infer_method == "mcmc":
        def run(n_chains, burn, thin):
            states, ch = chain_worlds(obs, hist, samples, seed, params, fns, tremble, n_chains, burn, thin)
            states[:, E.O_DECISION] = dec.decision
            return states, ch

        states, inference = by_chains(ev, samples, ess_floor, chains, run)
        return None, inference, states
    weights, inference = by_weights(
        ev, samples, ess_floor,
        lambda: worlds_loglik(obs, hist, np.arange(samples, dtype=np.int64), seed, params, fns, tremble))
    return weights, inference, None


def analyze_log(path, deal: int, turn: int, decision: str = "draw", index: int = 0, **kw) -> DecisionAnalysis:
    """``analyze`` the decision of a deal-log file (``rummy-sim analyze``)."""
    log = read_deal(path, deal)
    if log.get("game") != "persian":
        raise AnalysisInputError(f"{path}, deal {deal}: a {log.get('game')!r} deal, not a Persian one")
    try:
        validate_log(log)
    except ValueError as e:
        raise AnalysisInputError(f"{path}, deal {deal}: not a valid rummy-log/1 Persian deal: {e}") from None
    return analyze(decision_from_log(log, turn, decision, index), **kw)

