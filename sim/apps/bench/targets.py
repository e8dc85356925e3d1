"""A game's bench targets (its plan's ``targets``) against the figures of a bench result.

A target is ``(key, ">=" | "<", value)``. Its key names a deals/s cell (``<spec>_all``, or
``<spec>_<players>_all`` by table size: the path into ``deals_per_s`` joined by ``_``), a
figure of the game's own (met by its smallest variant) or a top-level number of the result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

Target = tuple[str, str, float]

#: the table's mark of a target met, missed, or not measured
MARK = {True: "PASS", False: "MISS", None: ""}


def meets(v: float | None, op: str, target: float) -> bool | None:
    """True / False against the target; None when the figure was not measured."""
    if v is None:
        return None
    return v >= target if op == ">=" else v < target


def cell_value(cells: dict, key: str) -> float | None:
    """The deals/s figure of the cell ``key`` names (``<spec>_<...>_<1|all>``), None if not measured."""
    for spec, node in cells.items():
        if not key.startswith(spec + "_"):
            continue
        for part in key[len(spec) + 1:].split("_"):
            node = node.get(part) if isinstance(node, dict) else None
        if node is not None and not isinstance(node, dict):
            return node
    return None


def target_value(result: dict, key: str) -> float | None:
    """The figure target ``key`` is checked against (see the module docstring)."""
    if key in result:
        v = result[key]
        if isinstance(v, dict):
            return min(v.values()) if v else None
        return v
    return cell_value(result.get("deals_per_s", {}), key)


def check_targets(result: dict, targets: Sequence[Target]) -> dict[str, bool | None]:
    """PASS (True) / MISS (False) per target key; None: not measured (e.g. greedy left out by
    ``--spec``)."""
    return {key: meets(target_value(result, key), op, t) for key, op, t in targets}


def target_label(key: str, targets: Sequence[Target], units: Mapping[str, str] | None = None) -> str:
    """The target of ``key`` as the table prints it: ">= 120,000", "< 1 s" (``units[key]``: " s")."""
    op, t = next((op, t) for k, op, t in targets if k == key)
    return f"{op} {t:,g}{(units or {}).get(key, '')}"


def target_mark(result: dict, key: str, targets: Sequence[Target],
                units: Mapping[str, str] | None = None) -> tuple[str, str]:
    """(label, mark) of the target on ``key``; ("", "") when the game sets none."""
    for k, op, t in targets:
        if k == key:
            return target_label(key, targets, units), MARK[meets(target_value(result, key), op, t)]
    return "", ""
