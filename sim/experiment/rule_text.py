"""Rule options written as text (``--rule KEY=VALUE``, ``--vary-rule KEY=V1,V2``, TOML values):
each option's type from the game's rules dataclass and a value converted to it, once for the
command line and the experiment constructors."""

from __future__ import annotations

from dataclasses import fields

from sim.plugin.registry import get_game

_WHAT = {bool: "true or false", int: "an integer", float: "a number"}


def rule_kinds(game=None) -> dict[str, type]:
    """Every rule option of ``game`` (a name or a Game; None: the default game) with the type of its default."""
    rules_type = get_game(game).rules_type
    defaults = rules_type()
    return {f.name: type(getattr(defaults, f.name)) for f in fields(rules_type)}


def rule_value(kind: type, value):
    """``value`` as a rule option of type ``kind``: text ("true", "30", " 2.5 ") converted, any other
    Python value returned as it is; a ValueError says what the text is not (``'x' is not an integer``)."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    try:
        if kind is bool:
            low = text.lower()
            if low in ("true", "yes", "1"):
                return True
            if low in ("false", "no", "0"):
                return False
            raise ValueError
        if kind is int:
            return int(text)
        if kind is float:
            return float(text)
    except ValueError:
        raise ValueError(f"{value!r} is not {_WHAT[kind]}") from None
    return text
