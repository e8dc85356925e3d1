"""The game contract: what a rummy game provides so the experiment layer can run it.

The experiment layers (sim.experiment, sim.runner, sim.studies, sim.present, sim.apps, the
CLI) never import a game package: they ask the registry (``sim.plugin.registry.get_game(name)``)
for a :class:`Game` and use only what this class declares; a capability a game may lack is an
optional member (``None`` or empty by default). A game lives in ``sim/games/<name>/`` (rules
kernels, engine, logs, replay, its report sections and figures) with its strategies in
``strategies/<name>/``; it subclasses :class:`Game` in ``sim/games/<name>/game.py`` as
``GAME``, which the registry finds by the folder's name. ``tests/contract/`` checks every game for
what every game must satisfy (determinism across threads, deal cards independent
of the strategies, observation without hidden information, logs that round-trip
and replay, result frames matching the declared schema).

Vocabulary: a *seat* is a place at the table (0 .. players-1); a *side* is what a
score belongs to (Persian: a team of two partner seats; a game of players each
alone: one seat). A duplicate *pairing* of team A against team B is played in
several *seatings* (rotations) of the same deals; each seating says which specs sit
where and which sides are A's and B's.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

import numpy as np

if TYPE_CHECKING:  # annotations only: running deals never imports pandas (first call < 1 s, issue 14)
    import pandas as pd

from sim.plugin.bench import BenchPlan
from sim.plugin.logfile import read_deal, write_jsonl
from sim.plugin.specs import StrategyRegistry, StrategySpec, adopt_registry, registry_of


@dataclass(frozen=True)
class Seating:
    """One rotation of a duplicate pairing: the spec in each seat and A's and B's sides."""

    specs: tuple[StrategySpec, ...]
    a_sides: tuple[int, ...]
    b_sides: tuple[int, ...]


@dataclass(frozen=True)
class ResultColumn:
    """A column of the per-play frame copied from the engine's int64 result row.

    ``dtype`` maps the experiment's rules to the narrowest integer type that holds
    every value the column can take under them (checked when the frame is built).
    """

    name: str
    index: int
    dtype: Callable[[Any], np.dtype]


@dataclass(frozen=True)
class DerivedColumn:
    """A column of the per-play frame computed from copied columns (e.g. a seat's net score
    = gain - loss), given the dict of copied columns of a block of plays."""

    name: str
    compute: Callable[[dict], np.ndarray]


@dataclass(frozen=True)
class ResultSchema:
    """What a game's result rows hold, for the per-play frame (docs/results.md).

    * ``columns``: copied engine columns and derived columns, in frame order (``deal``
      first; it is placed right after ``a``/``b`` by the frame builder), for the
      game's default player count (``Game.result_columns(players)`` for others).
    * ``end_names``: the end reasons, in the order of their codes (the engine's error
      code, used for a strategy's illegal move, comes after them and never reaches a
      frame); ``end_column``: the name of the copied end-code column.
    * ``side_word``: what a side is called (``team``), giving the ``a_team`` column.
    * ``score_parts``: per-side score parts; column ``{part}_{side}`` exists for each
      side; the last part is the side's total score (``a_total``/``b_total`` follow it).
    * ``counters``: per-seat counter names; column ``{name}_s{seat}`` exists for each.
    """

    columns: tuple[ResultColumn | DerivedColumn, ...]
    end_names: tuple[str, ...]
    end_column: str
    side_word: str
    score_parts: tuple[str, ...]
    counters: tuple[str, ...]
    n_result_cols: int


@dataclass(frozen=True)
class Decisions:
    """What a game gives to analyse decisions (``rummy-sim analyze`` / ``audit``, docs/decisions.md):
    its decision names, the kinds of decision an audit looks at (each with the features its
    breakdowns use), and the functions. The race, the paired statistics and the answer are the
    game-agnostic sim.apps.analysis; a game samples worlds from a seat's view and plays out."""

    #: decision names ``analyze --decision`` takes (Persian: draw, play, discard)
    decisions: tuple[str, ...]
    #: kind -> the situation features an audit of that kind breaks its decisions down by
    audit_features: dict[str, list[str]]
    #: ``analyze_log(path, deal, turn, decision, index, **options)`` -> sim.apps.analysis.result.Analysis
    analyze_log: Callable[..., Any]
    #: ``analyze(decision, **options)`` on a decision built in Python (a Position, an observation)
    analyze: Callable[..., Any]
    #: ``decision_from_log(log, turn, decision, index)`` -> the decision to analyse
    decision_from_log: Callable[..., Any]
    #: ``audit(strategy, kind, deals, ...)`` -> an audit of a strategy's decisions of one kind
    audit: Callable[..., Any]
    #: ``write_report(audit, out_dir)`` -> the files written
    write_report: Callable[..., list]
    #: ``summarize(frame, feature)`` -> an audit's decisions by one feature
    summarize: Callable[..., Any]

    @property
    def audit_kinds(self) -> tuple[str, ...]:
        return tuple(self.audit_features)


class Game(ABC):
    """A rummy game as the experiment layer sees it (one instance per game, registered)."""

    #: registry name (``--game NAME``)
    name: str = ""
    #: human title for reports
    title: str = ""
    #: rule-book part the rules come from
    rules_ref: str = ""
    #: the player counts the game allows, and the default
    seat_counts: tuple[int, ...] = ()
    default_players: int = 0
    #: the module declaring the game's built-in strategies (``BUILTINS``), e.g. ``strategies.persian.builtins``
    strategies_module: str = ""
    #: the module that learns this game's learned strategies (its ``TRAINS``: the strategy names it
    #: can train; ``train(...)``: expert iteration into a folder), as text like
    #: :attr:`strategies_module`; "" for a game that trains none (:attr:`trainer`)
    trainer_module: str = ""
    #: the frozen dataclass of rule options (``from_dict``, ``to_dict``, ``deals_per_game``, ``turn_cap``)
    rules_type: type = object

    # -- rules and tables -----------------------------------------------------------------------

    def rules(self, values: Any = None):
        """Validated rule options from a mapping (or ``None`` for the defaults)."""
        if isinstance(values, self.rules_type):
            return values
        return self.rules_type.from_dict(values)

    def check_players(self, players: int | None) -> int:
        """``players`` validated against :attr:`seat_counts` (``None`` or 0: the default)."""
        if players in (None, 0):
            return self.default_players
        if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or players not in self.seat_counts:
            allowed = ", ".join(str(n) for n in self.seat_counts)
            raise ValueError(f"{self.name}: players must be one of {allowed}, got {players!r}")
        return int(players)

    @abstractmethod
    def sides(self, players: int) -> tuple[tuple[int, ...], ...]:
        """The seats of each side at a table of ``players``."""

    @property
    def strategies(self) -> StrategyRegistry:
        """The game's strategy registry: the built-ins that :attr:`strategies_module` declares
        (its ``BUILTINS``), loaded on first use, and the user strategies registered since."""
        try:
            return registry_of(self.name)
        except ValueError:
            pass
        # the game hands over its strategies by name: no module of the games imports strategies/
        builtins = importlib.import_module(self.strategies_module).BUILTINS
        return adopt_registry(StrategyRegistry(self.name, tuple(builtins)))

    @property
    def trainer(self):
        """The module of :attr:`trainer_module` (imported on first use, so a game never imports
        strategies/), or None when the game trains no strategy (the command line says so)."""
        if not self.trainer_module:
            return None
        return importlib.import_module(self.trainer_module)

    def parse_spec(self, text: str | StrategySpec) -> StrategySpec:
        return self.strategies.parse_spec(text)

    # -- playing -----------------------------------------------------------------------------

    @abstractmethod
    def run_deals(self, specs: Sequence[str | StrategySpec], deals, seed: int, rules=None,
                  threads: int | None = None, record: int = 0, check: bool = False):
        """Play ``deals`` with ``specs[s]`` in seat s; a run object with ``.results`` (one int64
        row per deal, in the order of the deal indices). Raises sim.plugin.runs.StrategyError
        (a ValueError naming strategy, seat, seed and deal) on an illegal move. ``check``:
        user strategies bounds-checked (sim.plugin.runs.run_checked)."""

    @abstractmethod
    def results_frame(self, run) -> pd.DataFrame:
        """One row per deal of a run, with readable columns (for notebooks)."""

    @property
    @abstractmethod
    def schema(self) -> ResultSchema:
        """The result schema of the per-play frame."""

    def result_columns(self, players: int) -> tuple:
        """The frame columns at a table of ``players`` (per-seat and per-side columns vary)."""
        return self.schema.columns

    # -- duplicate comparisons ----------------------------------------------------------------

    @abstractmethod
    def rotations(self, a: Sequence[StrategySpec], b: Sequence[StrategySpec], players: int) -> int:
        """How many seatings a pairing of team ``a`` against team ``b`` is played in."""

    @abstractmethod
    def seating(self, a: Sequence[StrategySpec], b: Sequence[StrategySpec], rotation: int,
                players: int) -> Seating:
        """Seating ``rotation`` of the pairing (the same deals are played in every one)."""

    #: how the seatings are built, one line for result metadata
    seating_text: str = ""
    #: named seatings a pairing can be played in (``--seating``, TOML ``seating``), the default first;
    #: empty when the game has one way only. A game with several takes ``mode=NAME`` (a non-default
    #: name) in :meth:`rotations` and :meth:`seating`.
    seating_modes: tuple[str, ...] = ()

    def check_seating(self, mode: str | None, players: int) -> str:
        """``mode`` validated for a table of ``players``: "" for the default seating (so that
        experiments in the default seating keep their identity), else the mode's name."""
        if mode in (None, "") or (self.seating_modes and mode == self.seating_modes[0]):
            return ""
        if mode not in self.seating_modes[1:]:
            known = ", ".join(self.seating_modes) or "only its default seating"
            raise ValueError(f"{self.name}: unknown seating {mode!r}; known: {known}")
        return str(mode)

    def describe_seating(self, mode: str = "") -> str:
        """One line saying how seating ``mode`` ("" the default) is built, for result metadata."""
        return self.seating_text

    # -- game figures: what the game's players read beyond A - B (optional) ---------------------

    def figure_columns(self, players: int) -> list[str]:
        """Per-play columns :meth:`chunk_figures` reads besides ``pairing`` and ``rotation``."""
        return []

    def chunk_figures(self, exp, plays: pd.DataFrame) -> np.ndarray | None:
        """Integer sums of one chunk's plays (an array that merges by addition, e.g. per pairing and
        side the counts of seat-plays won), or None when the game keeps none. sim.runner.aggregate keeps
        them beside its own statistics, chunk by chunk."""
        return None

    def summary_figures(self, totals, pairing: int) -> dict:
        """Extra summary-frame columns of ``pairing`` from the merged statistics (sim.runner.aggregate.Totals,
        its ``figures`` the sum of :meth:`chunk_figures`); {} by default."""
        return {}

    def figures_json(self, row) -> dict:
        """The block ``rummy-sim match --json`` adds under the game's name, from a summary row; {} for none."""
        return {}

    def figures_lines(self, row, players: int) -> list[str]:
        """Lines ``rummy-sim match`` prints under the common ones, from a summary row."""
        return []

    def pairings_lines(self, summary: pd.DataFrame, players: int) -> list[str]:
        """Lines ``rummy-sim tournament`` / ``sweep`` print after their own, from the summary frame."""
        return []

    def size_columns(self, columns: Sequence[str], kind: str) -> list[str]:
        """Which of a summary's (or sweep table's) ``columns`` a row of the table by table size of a
        ``kind`` ("match", "sweep") keeps (sim.studies.by_players); none by default."""
        return []

    def size_head(self, columns: Sequence[str]) -> str:
        """The header ``rummy-sim match --players 2,4,6`` prints for :meth:`size_cell` when the table
        by size has ``columns``; "" (no cell) by default."""
        return ""

    def size_cell(self, row) -> str:
        """This game's cell of one row (a namedtuple) of the matches' table by table size."""
        return ""

    # -- deal logs ----------------------------------------------------------------------------

    @abstractmethod
    def record_logs(self, specs: Sequence[str | StrategySpec], deals, seed: int, rules=None,
                    threads: int | None = None, check: bool = False) -> list[dict]:
        """``rummy-log/1`` objects of the deals, written by the engine's recording mode."""

    @abstractmethod
    def log_summary(self, logs: list[dict]) -> str:
        """One line describing recorded logs (ends, mean scores), for ``rummy-sim log``."""

    def write_logs(self, path: str | Path, logs: Iterable[dict]) -> None:
        write_jsonl(path, logs)

    def read_deal(self, path: str | Path, deal: int) -> dict:
        return read_deal(path, deal)

    @abstractmethod
    def validate_log(self, log: dict) -> None:
        """Raise ValueError naming the field when ``log`` is not a valid deal of this game."""

    @abstractmethod
    def render_deal(self, log: dict, color: bool = False) -> str:
        """A readable replay of one deal log (``rummy-sim show``)."""

    # -- information: what a seat may see ---------------------------------------------------

    @abstractmethod
    def decision_states(self, specs: Sequence[str | StrategySpec], seed: int, deal: int, rules=None):
        """Iterate over the full state (an int64 array) before every decision with two or more
        legal moves of ``deal``, played by ``specs`` as the engine plays it."""

    @abstractmethod
    def hidden_variant(self, state, gen: np.random.Generator):
        """A state the deciding seat cannot tell from ``state``: only what the rules hide
        from it (other hands' unknown cards, the stock order) is redrawn."""

    @abstractmethod
    def view(self, state, rules=None) -> tuple[np.ndarray, np.ndarray]:
        """(observation, legal move rows) that a strategy deciding in ``state`` receives."""

    def readable_view(self, decision: int, obs: np.ndarray, moves: np.ndarray) -> dict:
        """The fields of a sim.plugin.readable.View (all but ``game``, ``params``, ``random`` and
        ``obs``) for a strategy deciding ``decision`` with observation ``obs`` and legal ``moves``:
        what a plain-Python strategy registered with register_readable_strategy reads."""
        raise NotImplementedError(f"{self.name}: no readable view for plain-Python strategies yet")

    # -- reports ------------------------------------------------------------------------------

    def report_sections(self) -> list:
        """Game-specific report sections (``rummy-sim report``); none by default.

        The report (sim.present.report) reads the game from the results' metadata and renders its
        generic sections (summary, score and deal-length distributions, end reasons; they use
        only :attr:`schema` and the per-play columns every game has), then these, in list
        order, then the list of files. A section is any object with:

        * ``key`` - a name unique in the report; ``collected.part(key)`` is its accumulator;
        * ``heading`` - the ``##`` heading it opens;
        * ``joins`` - ``""``, or the key of a generic section (``"ends"``) it is rendered
          inside, after that section's tables and before its figures; its ``heading`` is
          then the words added to that section's heading (", dealer effect");
        * ``start(collected) -> acc`` - the empty accumulator, once before the first chunk
          (``collected.exp`` is the experiment, ``collected.exp.game_spec`` this game);
        * ``reduce(frame, acc)`` - called for every chunk of per-play rows (the columns of
          docs/results.md); it keeps bounded sums only (counts, per deal-set moments), as a
          report reads tens of millions of plays one chunk at a time;
        * ``render(doc, collected, out_dir)`` - adds blocks to the document
          (sim.present.report.document.Doc: ``h``, ``p``, ``bullets``, ``table``, ``img``) and writes
          its CSV tables and PNG figures (sim.present.charts) into ``out_dir``.

        ``sim.present.report.base.Section`` gives do-nothing defaults, and that module has the
        helpers generic and game sections share (``shown_pairings``, ``pair_label`` ...); the
        accumulating helpers (``add_moments``, ``set_means`` ...) and ``Collected`` are sim.runner.sums'.
        """
        return []

    # -- decision analysis ---------------------------------------------------------------------

    @property
    def decisions(self) -> "Decisions | None":
        """Decision analysis (:class:`Decisions`), or None for a game without it (the
        command line then says so in one line)."""
        return None

    def position_format(self):
        """The reader of a player's own position (``rummy-sim analyze --position FILE / --hand ...``,
        ``rummy-sim position``; docs/decisions.md): a module or object with ``FIELDS``,
        ``decision_from_fields(fields)``, ``fields_from_args(args)`` and ``describe(decision)``; None
        for a game that reads none."""
        return None

    # -- benchmark ---------------------------------------------------------------------------

    def bench_plan(self) -> BenchPlan:
        """What ``rummy-sim bench --game NAME`` measures (sim.plugin.bench.BenchPlan: strategies, table
        sizes, deals per run, targets, the game's own figures); by default greedy and random at the
        default table size, no targets."""
        return BenchPlan(players=(self.default_players,))

    # -- description ---------------------------------------------------------------------------

    def describe(self) -> dict:
        """Name, title, player counts, sides and rule options with defaults (``rummy-sim games``)."""
        return {
            "name": self.name,
            "title": self.title,
            "rules": self.rules_ref,
            "players": list(self.seat_counts),
            "default_players": self.default_players,
            "sides": {n: [list(s) for s in self.sides(n)] for n in self.seat_counts},
            "seatings": list(self.seating_modes),
            "rule_options": self.rules().to_dict(),
            "strategies": self.strategies.names(),
        }
