"""Array layouts of every game's kernels, built from ordered ``(name, width)`` lists, so
that adding a slot moves every later slot with it and two slots can never overlap."""


def layout(fields, start=0):
    """Offsets of the ``(name, width)`` slots laid end to end from ``start``, and the
    end of the last one: ``({name: offset}, end)``."""
    offsets = {}
    pos = start
    for name, width in fields:
        if name in offsets:
            raise ValueError(f"slot {name} listed twice")
        if width < 1:
            raise ValueError(f"slot {name} has width {width}")
        offsets[name] = pos
        pos += width
    return offsets, pos
