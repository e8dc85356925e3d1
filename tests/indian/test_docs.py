"""Every Indian built-in strategy and parameter is documented (docs/strategies.md)."""

from pathlib import Path

from sim.plugin.registry import registry_for

DOC = Path(__file__).resolve().parents[2] / "docs" / "strategies.md"


def test_indian_strategies_and_parameters_are_documented() -> None:
    doc = DOC.read_text(encoding="utf-8")
    section = doc[doc.index("# Indian Rummy strategies"):]
    reg = registry_for("indian")
    for name in reg.names():
        info = reg.get(name)
        if info.function is not None:
            continue  # a user strategy registered by another test
        assert f"## `{name}`" in section, name
        for p in info.params:
            assert f"`{p.name}`" in section, (name, p.name)
            assert p.low <= p.default <= p.high
