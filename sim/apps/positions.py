"""A player's own position as a file or as command-line text: the game-agnostic half (issue 24, item 2).

A position file is TOML (``.toml``) or JSON (``.json``) holding one table of fields; which
fields a game reads, their defaults and their checks live in the game's own folder
(``sim/games/<name>/position_file.py``). This module only reads and writes the file, splits
card lists and seat lists given as text, and names every problem in one line
(:class:`PositionError`, which the command line turns into exit 2).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any, Mapping


class PositionError(ValueError):
    """A position that cannot be read or is not consistent; the message is one line naming the problem."""


def read_position_file(path: str | Path) -> dict:
    """The fields of a position file (TOML or JSON by its suffix), as a dict."""
    p = Path(path)
    if not p.exists():
        raise PositionError(f"{p}: no such position file")
    text = p.read_text(encoding="utf-8")
    try:
        if p.suffix.lower() == ".json":
            data = json.loads(text)
        elif p.suffix.lower() == ".toml":
            data = tomllib.loads(text)
        else:
            raise PositionError(f"{p}: a position file ends in .toml or .json")
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as e:
        raise PositionError(f"{p}: not valid {p.suffix[1:].upper()}: {str(e).splitlines()[0]}") from None
    if not isinstance(data, dict):
        raise PositionError(f"{p}: a position file holds one table of fields, not a {type(data).__name__}")
    return data


def check_fields(data: Mapping[str, Any], known: Mapping[str, str], game: str) -> None:
    """Refuse a field the game does not read (a typo would otherwise silently become a default)."""
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise PositionError(f"unknown field {unknown[0]!r} in a {game} position; the fields are "
                            f"{', '.join(known)}")


def card_list(value: Any, what: str) -> list[str]:
    """Card names from text ("7C 9C TC", commas allowed) or a list of names."""
    if value is None:
        return []
    if isinstance(value, str):
        return value.replace(",", " ").split()
    if isinstance(value, (list, tuple)) and all(isinstance(c, str) for c in value):
        return [c.strip() for c in value]
    raise PositionError(f"{what}: expected card names (text or a list of names), got {value!r}")


def int_list(value: Any, what: str) -> list[int]:
    """Integers from text ("8,7,7,7") or a list of integers."""
    if isinstance(value, str):
        parts = [v for v in value.replace(",", " ").split()]
        try:
            return [int(v) for v in parts]
        except ValueError:
            raise PositionError(f"{what}: expected integers such as 8,7,7,7, got {value!r}") from None
    if isinstance(value, (list, tuple)) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return list(value)
    raise PositionError(f"{what}: expected a list of integers, got {value!r}")


def an_int(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    """One integer (text allowed, as from the command line), within [low, high] when given."""
    try:
        v = int(value) if not isinstance(value, bool) else None
    except (TypeError, ValueError):
        v = None
    if v is None:
        raise PositionError(f"{what}: expected an integer, got {value!r}")
    if (low is not None and v < low) or (high is not None and v > high):
        raise PositionError(f"{what} must be in {low}..{high}, got {v}")
    return v


def seat_cards(value: Any, what: str) -> list[tuple[int, list[str]]]:
    """(seat, cards) pairs: text "1: QS QH; 3: 7D" or a list of {seat, cards} tables."""
    if value is None:
        return []
    out = []
    if isinstance(value, str):
        for part in filter(None, (p.strip() for p in value.split(";"))):
            seat, sep, cards = part.partition(":")
            if not sep:
                raise PositionError(f"{what}: expected SEAT: CARDS parts separated by ';', got {part!r}")
            out.append((an_int(seat.strip(), f"{what}: the seat"), card_list(cards, what)))
        return out
    if isinstance(value, list):
        for item in value:
            if not isinstance(item, dict) or "cards" not in item or "seat" not in item:
                raise PositionError(f"{what}: each entry needs a seat and cards, got {item!r}")
            out.append((an_int(item["seat"], f"{what}: the seat"), card_list(item["cards"], what)))
        return out
    raise PositionError(f"{what}: expected 'SEAT: CARDS; ...' or a list of {{seat, cards}}, got {value!r}")


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)  # a JSON string is a TOML basic string for the text positions hold
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"no TOML form for {v!r}")


def to_toml(fields: Mapping[str, Any], comment: str = "") -> str:
    """A position's fields as TOML text (``read_position_file`` reads it back); None values are left out."""
    lines = [f"# {c}" for c in comment.splitlines()] if comment else []
    for k, v in fields.items():
        if v is not None:
            lines.append(f"{k} = {_toml_value(v)}")
    return "\n".join(lines) + "\n"
