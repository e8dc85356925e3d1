"""The compiled event recorder every game's engine writes its deal logs with.

A recording run hands the deal kernel an event buffer ``ev`` (deal slot, row, column) and a
count per slot ``ev_n``; ``event`` appends one row of five values (the kind, the seat and three
values whose meaning each game's enums.py gives). A full buffer marks its slot's count -1 and
drops every later row, so the Python side can say the buffer was too small
(sim.plugin.runs.Engine.play) instead of writing past it.
"""

from numba import njit, types

# an explicit signature: called with literal event kinds, a lazy kernel would compile once per kind
EVENT_SIG = types.void(types.int64[:, :, ::1], types.int64[::1], types.int64, types.int64, types.int64,
                       types.int64, types.int64, types.int64)


@njit(EVENT_SIG, cache=True, _nrt=False)
def event(ev, ev_n, slot, kind, seat, a, b, c):
    """Append the row (kind, seat, a, b, c) to deal ``slot``'s events; on overflow mark it -1.

    Parameters
    ----------
    ev, ev_n : the event buffer (deal, row, 5 or more columns) and the event count per deal
    slot : this deal's row in ``ev`` and ``ev_n``
    kind, seat, a, b, c : the event row (a game's EV_* kind, the seat, three values)
    """
    i = ev_n[slot]
    if i < 0:
        return
    if i >= ev.shape[1]:
        ev_n[slot] = -1
        return
    ev[slot, i, 0] = kind
    ev[slot, i, 1] = seat
    ev[slot, i, 2] = a
    ev[slot, i, 3] = b
    ev[slot, i, 4] = c
    ev_n[slot] = i + 1
