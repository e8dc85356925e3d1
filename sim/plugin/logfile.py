"""Deal-log files of every game: JSON Lines, one ``rummy-log/1`` object per deal.

What a deal object holds is the game's business (its ``log.py`` writes it, its
``validate_log`` checks it); reading and writing the file is common to all games.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from sim.core.fmt import json_ready

#: deal objects are written through the one JSON sanitiser of the toolkit (numpy values to
#: plain Python, NaN/inf to null); ``_plain`` is its name for the games' log writers
_plain = json_ready


def write_jsonl(path: str | Path, logs: Iterable[dict]) -> int:
    """Write deal logs to ``path``, one compact JSON object per line (UTF-8); returns how many."""
    n = 0
    with open(path, "w", encoding="utf-8") as f:
        for d in logs:
            f.write(json.dumps(_plain(d), separators=(",", ":"), ensure_ascii=False))
            f.write("\n")
            n += 1
    return n


def read_jsonl(path: str | Path) -> list[dict]:
    """Read every deal log of a JSONL file (blank lines are skipped)."""
    logs = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                logs.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}, line {n}: not valid JSON ({e.msg})") from None
    return logs


def read_deal(path: str | Path, deal_index: int) -> dict:
    """The deal whose ``"deal"`` field is ``deal_index``; ValueError listing the deals present if absent."""
    logs = read_jsonl(path)
    for d in logs:
        if isinstance(d, dict) and d.get("deal") == deal_index:
            return d
    present = sorted(d["deal"] for d in logs if isinstance(d, dict) and isinstance(d.get("deal"), int)
                     and not isinstance(d.get("deal"), bool))
    if not present:
        raise ValueError(f"deal {deal_index} not in {path}: the file holds no deals")
    contiguous = present == list(range(present[0], present[-1] + 1))
    span = f"{present[0]}..{present[-1]}" + ("" if contiguous else " (with gaps)")
    raise ValueError(f"deal {deal_index} not in {path}: it holds {len(present)} deals, numbered {span}")
