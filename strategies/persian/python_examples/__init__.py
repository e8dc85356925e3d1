"""Plain-Python strategies of this game (sim.plugin.pystrategy): ports of built-ins, for reading and loading."""
