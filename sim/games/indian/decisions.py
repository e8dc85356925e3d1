"""Indian Rummy decisions: from a deal log, a ``Position`` or a seat's observation to an analysis.

An :class:`IndianDecision` holds what the deciding seat may see (its observation, I9: own
hand, the pile and its discard history, the cards each seat took from the pile and still
holds, the cut joker, hand and stock sizes, who dropped), the decision, its legal move rows
and, when known, the move actually played. Nothing else of the true state is kept, so
nothing else can leak into the analysis.

The decisions a player asks about (``DECISIONS``): ``drop`` and ``draw`` are the same draw
decision (stock, the top discard, or a first / middle drop, I3, I7: every candidate is
compared), ``discard`` and ``declare`` the same discard decision (each discard and each
declaration discarding a card, I3, I5).

``analyze`` samples worlds from that observation only (decisions_nb.sample_world: the
unseen cards dealt uniformly among the hidden hands and the stock, consistently with every
public fact; no inference from what the opponents chose unless ``infer`` is given: then the
worlds are weighted by how likely they make the opponents' recorded choices,
sim/games/indian/infer.py), plays every candidate in the same worlds and plays the deal out with a policy in every seat (decisions_nb.play_worlds),
and compares the candidates paired (sim/apps/analysis/stats.py) in a race with early
elimination (sim/apps/analysis/racing.py). A score is the deciding seat's net points of
the deal (I6: what it wins by declaring, minus what it loses).

Turns are numbered from 1 as ``rummy-sim show`` prints them (reshuffles are not turns).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from sim.apps.analysis.racing import race
from sim.apps.analysis.result import DecisionAnalysis
from sim.apps.analysis.stats import candidate_frame
from sim.apps.analysis.mcmc import INFER_CHAINS, INFER_METHOD, check_infer_method
from sim.apps.analysis.inferred import Evidence, by_chains, by_weights, sampler_words
from sim.apps.analysis.weighted import AnalysisInputError, check_infer_input
from sim.games.indian import enums as E
from sim.games.indian.cards import kind_name, parse_kind
from sim.games.indian.decisions_nb import play_states, play_worlds
from sim.games.indian.engine import kernel_args, parse_specs
from sim.games.indian.infer import History, chain_worlds, record, worlds_loglik
from sim.games.indian.log_check import validate_log
from sim.games.indian.position import Position, row_to_move
from sim.games.indian.rules import RuleOptions
from sim.plugin.logfile import read_deal
from sim.plugin.runs import check_seed, set_threads
from sim.plugin.specs import StrategySpec

DECISIONS = ("drop", "draw", "discard", "declare")
_PHASE = {"drop": E.D_DRAW, "draw": E.D_DRAW, "discard": E.D_DISCARD, "declare": E.D_DISCARD}
SAMPLER_TEXT = ("hidden cards dealt uniformly at random among the hidden hands and the stock, consistent with the "
                "seat's view (own hand, pile and its discard history, pickups still held, the cut joker, hand "
                "and stock sizes, drops; I9); no inference from what opponents chose to take, keep or discard")


WORLDS_UNIFORM = "worlds uniform (every deal of the hidden cards consistent with the view equally likely)"
INFER_TREMBLE = 0.5  # --tremble: the inferred policy's chance of playing any legal move at random
INFER_ESS_FLOOR = 10.0  # --ess-floor: below this effective sample size the inference has failed


def describe_row(r) -> str:
    """A legal move row in words ("draw from the stock", "take 7H from the pile", "declare discarding 7H")."""
    kind, k = int(r[0]), int(r[1])
    if kind == E.MV_STOCK:
        return "draw from the stock"
    if kind == E.MV_PILE:
        return f"take {kind_name(k)} from the pile"
    if kind == E.MV_DROP:
        return "drop"
    if kind == E.MV_DISCARD:
        return f"discard {kind_name(k)}"
    if kind == E.MV_DECLARE:
        return f"declare discarding {kind_name(k)}"
    raise ValueError(f"unknown move kind {kind}")


@dataclass
class IndianDecision:
    """One decision of one seat, as that seat sees it (I9)."""

    obs: np.ndarray  # int64[OBS_SIZE]: the deciding seat's observation, O_DECISION set
    rows: np.ndarray  # (n, MOVE_COLS) legal move rows, engine order
    played: int | None = None  # index in ``rows`` of the move actually played
    deal: int | None = None
    turn: int | None = None  # 1-based, as rummy-sim show numbers turns
    where: str = ""  # how to name this decision in messages
    #: the other seats' public choices before this decision (sim/games/indian/infer.py; a logged
    #: decision only): what ``--infer`` reads; public facts only, like ``obs``
    history: History | None = field(default=None, repr=False)

    @property
    def decision(self) -> int:
        return int(self.obs[E.O_DECISION])

    @property
    def seat(self) -> int:
        return int(self.obs[E.O_SEAT])

    def labels(self) -> list[str]:
        return [describe_row(r) for r in self.rows]

    def situation(self) -> dict:
        """The seat's view in words and numbers (everything here is public to it, I9)."""
        o = self.obs
        players = int(o[E.O_PLAYERS])
        hand = [kind_name(k) for k in range(E.N_KINDS) for _ in range(int(o[E.O_HAND + k]))]
        pile = [kind_name(int(k)) for k in _pile_top_first(o)]
        d = {
            "game": "indian",
            "deal": self.deal,
            "turn": self.turn,
            "seat": self.seat,
            "players": players,
            "decision": E.DECISION_NAMES[self.decision],
            "hand": hand,
            "cut_joker": kind_name(int(o[E.O_CUT_JOKER])),
            "pile_top_first": pile,
            "stock": int(o[E.O_STOCK_N]),
            "hand_sizes": [int(o[E.O_HAND_N + s]) for s in range(players)],
            "status": [E.STATUS_NAMES[int(o[E.O_STATUS + s])] for s in range(players)],
            "pickups": [int(o[E.O_PICKUPS + s]) for s in range(players)],
            "target": None,
            "played": describe_row(self.rows[self.played]) if self.played is not None else None,
        }
        where = f"deal {self.deal}, turn {self.turn}" if self.deal is not None else "position"
        d["title"] = f"{where}: seat {self.seat} {d['decision']} ({len(self.rows)} legal moves)"
        return d

    @classmethod
    def from_position(cls, pos: Position, played: tuple | None = None, deal: int | None = None,
                      turn: int | None = None) -> "IndianDecision":
        """The decision of the seat to move in ``pos`` (its observation only is kept);
        ``played`` is the move actually made, as a Position move tuple, if known."""
        if pos.decision == "over":
            raise AnalysisInputError("the deal is over: there is no decision to analyse")
        obs, rows = pos.view()
        idx = None
        if played is not None:
            moves = [row_to_move(r) for r in rows]
            if tuple(played) not in moves:
                raise AnalysisInputError(f"the move played {played!r} is not legal here")
            idx = moves.index(tuple(played))
        return cls(obs, rows, idx, deal, turn)


def _pile_top_first(o: np.ndarray) -> list[int]:
    """The pile top first as far as the observation orders it: the top, then the latest discards
    (the last RING) still in the pile, then the rest by kind (as determinize_nb.rebuild_pile)."""
    n = int(o[E.O_PILE_N])
    if n == 0:
        return []
    rem = o[E.O_PILE_COUNTS: E.O_PILE_COUNTS + E.N_KINDS].copy()
    out = [int(o[E.O_TOP])]
    rem[out[0]] -= 1
    nd = int(o[E.O_N_DISCARDS])
    for j in range(nd - 1, max(-1, nd - 1 - E.RING), -1):
        k = int(o[E.O_RING + 2 * (j % E.RING) + 1])
        if len(out) < n and rem[k] > 0:
            out.append(k)
            rem[k] -= 1
    out += [k for k in range(E.N_KINDS) for _ in range(int(rem[k]))]
    return out


# --- from a deal log -------------------------------------------------------------------------------------


def _draw_move(turn: dict) -> tuple:
    draw = turn["draw"]
    if draw == "drop":
        return ("drop",)
    if "stock" in draw:
        return ("stock",)
    return ("pile", draw["discard"])


def _end_move(turn: dict) -> tuple | None:
    if "declare" in turn:
        return ("declare", turn["declare"]["discard"])
    if turn.get("discard") is not None:
        return ("discard", turn["discard"])
    return None


def start_position(log: dict) -> Position:
    """The position right after the deal of a ``rummy-log/1`` Indian deal (the engine's deal
    of its seed, checked against the logged hands)."""
    rules = RuleOptions.from_dict(log.get("rules") or {})
    pos = Position.from_deal(int(log["seed"]), int(log["deal"]), int(log["players"]), rules)
    for s, hand in enumerate(log["hands"]):
        if sorted(pos.hand(s)) != sorted(hand):
            raise AnalysisInputError(f"deal {log.get('deal')}: seat {s}'s logged hand is not the one seed "
                                     f"{log['seed']} deals")
    return pos


def _apply(pos: Position, move: tuple, where: str, hist: History | None = None) -> None:
    """Apply a logged move (noting it in ``hist`` when given: sim/games/indian/infer.py)."""
    try:
        if hist is None:
            pos.apply(move)
        else:
            record(hist, pos, move)
    except ValueError as e:
        raise AnalysisInputError(f"{where}: the log's move {move!r} cannot be replayed: {e}") from None


def _set_stock(pos: Position, cards: list[str]) -> None:
    """After an I8 reshuffle: the stock the log recorded (top first)."""
    stk = [parse_kind(c) for c in cards][::-1]
    pos.st[E.S_STOCK: E.S_STOCK + len(stk)] = stk
    pos.st[E.O_STOCK_N] = len(stk)


def _turns(log: dict):
    """(turn number, entry) of every logged turn, reshuffles given as turn number 0."""
    n = 0
    for entry in log["turns"]:
        if "reshuffle" in entry:
            yield 0, entry
        else:
            n += 1
            yield n, entry


def decision_from_log(log: dict, turn: int, decision: str = "draw", index: int = 0) -> IndianDecision:
    """The decision ``decision`` (DECISIONS) of turn ``turn`` (1-based) of a logged deal.

    Raises AnalysisInputError naming the deal, the turn and what is wrong: a turn the deal does
    not have, a discard decision in a turn that dropped, or a forced decision."""
    deal = log.get("deal")
    if decision not in DECISIONS:
        raise AnalysisInputError(f"decision must be one of {', '.join(DECISIONS)}, got {decision!r}")
    n_turns = sum(1 for n, _ in _turns(log) if n)
    if isinstance(turn, bool) or not isinstance(turn, (int, np.integer)) or not 1 <= turn <= n_turns:
        raise AnalysisInputError(f"deal {deal} has turns 1..{n_turns}; turn {turn} does not exist")
    hist = History(next(int(e['seat']) for n, e in _turns(log) if n == turn))
    pos = start_position(log)
    for n, entry in _turns(log):
        if n == 0:
            _set_stock(pos, entry["reshuffle"])
            continue
        where = f"deal {deal}, turn {n} (seat {entry['seat']})"
        draw, end = _draw_move(entry), _end_move(entry)
        if n == turn:
            break
        _apply(pos, draw, where, hist)
        if end is not None:
            _apply(pos, end, where, hist)
    if _PHASE[decision] == E.D_DRAW:
        played = draw
    else:
        if end is None:
            raise AnalysisInputError(f"{where}: no {decision} decision: the seat dropped (I7)")
        _apply(pos, draw, where, hist)
        played = end
    dec = IndianDecision.from_position(pos, played, deal, turn)
    dec.where = where
    dec.history = hist
    if len(dec.rows) < 2:
        raise AnalysisInputError(f"{where}: the {decision} decision is forced; nothing to compare")
    return dec


def decisions_in(log: dict, phases: Sequence[int] = (E.D_DRAW, E.D_DISCARD)):
    """Every unforced decision of a logged deal whose phase (D_DRAW, D_DISCARD) is in ``phases``,
    in order, replaying the deal once (an IndianDecision each, with the move played and its turn)."""
    pos = start_position(log)
    deal = log.get("deal")
    for n, entry in _turns(log):
        if n == 0:
            _set_stock(pos, entry["reshuffle"])
            continue
        where = f"deal {deal}, turn {n} (seat {entry['seat']})"
        for move in (_draw_move(entry), _end_move(entry)):
            if move is None:
                break
            if int(pos.st[E.O_DECISION]) in phases:
                dec = IndianDecision.from_position(pos, move, deal, n)
                dec.where = where
                if len(dec.rows) >= 2:
                    yield dec
            _apply(pos, move, where)
        if pos.decision == "over":
            return


# --- the analysis ----------------------------------------------------------------------------------------


def policy_args(specs: Sequence[str | StrategySpec] | str | StrategySpec, players: int):
    """(names per seat, parameter matrix, six function slots) of a play-out policy: one spec for
    every seat, or one per seat."""
    parsed = parse_specs([specs] * players if isinstance(specs, (str, StrategySpec)) else list(specs))
    if len(parsed) != players:
        raise AnalysisInputError(f"--policy: one strategy, or one per seat ({players}), got {len(parsed)}")
    _, params, fns = kernel_args(parsed)
    return [s.name for s in parsed], params, fns


def as_decision(dec) -> IndianDecision:
    """An IndianDecision from an IndianDecision or a Position (the seat to move's decision)."""
    if isinstance(dec, Position):
        return IndianDecision.from_position(dec)
    if not isinstance(dec, IndianDecision):
        raise AnalysisInputError(f"an Indian decision or Position is needed, got {type(dec).__name__}")
    return dec


def analyze(dec: IndianDecision | Position, samples: int = 1000, policy: str | Sequence[str] = "expert",
            seed: int = 0, horizon: str = "deal", batch: int = 100, alpha: float = 0.05, racing: bool = True,
            top: int = 0, min_samples: int | None = None, threads: int | None = None,
            progress=None, infer: str | Sequence[str] | None = None, tremble: float = INFER_TREMBLE,
            ess_floor: float = INFER_ESS_FLOOR, infer_method: str = INFER_METHOD,
            chains: tuple[int, int, int] = INFER_CHAINS) -> DecisionAnalysis:
    """Compare every legal move of ``dec`` (or the ``top`` best after a pilot batch, the move
    played always kept) over ``samples`` sampled worlds; see the module docstring. ``policy``: a
    strategy spec for every seat (or one per seat) playing the rest of the deal.

    ``infer``: a strategy spec (or one per seat); the worlds are then weighted by how likely they
    make the other seats' recorded draws, drops and discards under it (sim/games/indian/infer.py,
    ``tremble`` its chance of any legal move); the race is off (every candidate in every world)
    and an effective sample size below ``ess_floor`` stops with AnalysisInputError (no fallback).
    ``infer_method``: "weights" (importance weights) or "mcmc" (equal-weight worlds of chains,
    ``chains`` = (chains, burn-in, thinning); infer.chain_worlds)."""
    dec = as_decision(dec)
    if len(dec.rows) < 2:
        raise AnalysisInputError(f"{dec.where or 'this decision'} is forced: one legal move, nothing to compare")
    if samples < 2:
        raise AnalysisInputError(f"samples must be at least 2, got {samples}")
    if horizon != "deal":
        raise AnalysisInputError(f"horizon must be 'deal' (Indian Rummy scores each deal on its own), got {horizon!r}")
    seed = check_seed(seed)
    names, params, fns = policy_args(policy, int(dec.obs[E.O_PLAYERS]))
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
            play_worlds(obs, np.ascontiguousarray(rows[cands]), worlds, np.int64(seed), params, fns, out)
        else:
            play_states(np.ascontiguousarray(rows[cands]), states[start:stop], worlds, seed, params, fns, out)
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
    frame = candidate_frame(rr.scores, labels, dec.played, rr.alive, weights=weights)
    if rr.pruned.any():
        frame = frame[~frame["move"].isin([labels[i] for i in np.flatnonzero(rr.pruned)])].reset_index(drop=True)
    assumptions = _assumptions(names, rr, samples, seed, len(rows), batch, top, alpha, racing, inference)
    return DecisionAnalysis(frame, dec.situation(), assumptions, rr.scores, secs, rr.stopped_early,
                            {"looks": rr.looks, "decisions_per_second": 1.0 / secs if secs > 0 else float("inf")})


def _assumptions(names, rr, samples, seed, n_rows, batch, top, alpha, racing, inference=None) -> dict:
    """What an answer rests on, in words: policy, worlds (uniform or weighted), race, score."""
    kept = int((~rr.pruned).sum())
    out = {
        "policy": names[0] if len(set(names)) == 1 else names,
        "policy_in": "every seat, from the move analysed on (the deciding seat too)",
        "worlds": rr.worlds,
        "max_worlds": samples,
        "horizon": "deal",
        "seed": seed,
        "sampler": SAMPLER_TEXT if inference is None else SAMPLER_TEXT.split("; no inference")[0]
        + sampler_words(inference),
        "worlds_are": WORLDS_UNIFORM if inference is None else inference["text"],
        "candidates": f"{n_rows} legal moves" + (f", {kept} after a pilot of {batch} worlds (top {top} + the move "
                                                 "played)" if rr.pruned.any() else ""),
        "race": (f"paired one-sided t bounds, Bonferroni over {max(1, kept - 1)} rivals x "
                 f"{-(-samples // min(batch, samples))} looks, alpha {alpha}" if racing else "off"),
        "score": "the deciding seat's net points of the deal (I6: its gain by declaring minus its loss)",
    }
    if inference is not None:
        out["inference"] = {k: v for k, v in inference.items() if k != "text"}
    return out


def _inferred(dec, obs: np.ndarray, samples: int, seed: int, infer, tremble: float, ess_floor: float,
              infer_method: str, chains: tuple[int, int, int]):
    """(weights or None, inference description or None, worlds or None) of ``analyze``'s ``infer``
    arguments: nothing without ``infer``, importance weights (``infer_method`` "weights") or
    equal-weight chain worlds ("mcmc"), under ``infer`` (sim/games/indian/infer.py; the choices of
    seats out of the deal are not read)."""
    if infer is None:
        return None, None, None
    check_infer_method(infer_method, chains)
    check_infer_input(dec.history, tremble)
    names, params, fns = policy_args(infer, int(obs[E.O_PLAYERS]))
    hist = dec.history
    used = sum(1 for c in hist.choices if int(obs[E.O_STATUS + c.seat]) == E.ST_IN)
    ev = Evidence(dec.where or "this decision", names[0] if len(set(names)) == 1 else "/".join(names), used,
                  "draws, drops and discards", tremble, "; seats out of the deal not read")
    if infer_method == "mcmc":
        states, inference = by_chains(ev, samples, ess_floor, chains, lambda n_chains, burn, thin: chain_worlds(
            obs, hist, samples, seed, params, fns, tremble, n_chains, burn, thin))
        return None, inference, states
    weights, inference = by_weights(
        ev, samples, ess_floor,
        lambda: worlds_loglik(obs, hist, np.arange(samples, dtype=np.int64), seed, params, fns, tremble))
    return weights, inference, None


def analyze_log(path, deal: int, turn: int, decision: str = "draw", index: int = 0, **kw) -> DecisionAnalysis:
    """``analyze`` the decision of a deal-log file (``rummy-sim analyze --game indian``)."""
    log = read_deal(path, deal)
    if log.get("game") != "indian":
        raise AnalysisInputError(f"{path}, deal {deal}: a {log.get('game')!r} deal, not an Indian one")
    try:
        validate_log(log)
    except ValueError as e:
        raise AnalysisInputError(f"{path}, deal {deal}: not a valid rummy-log/1 Indian deal: {e}") from None
    return analyze(decision_from_log(log, turn, decision, index), **kw)

