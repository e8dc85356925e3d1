"""Strategies for the Persian Rummy engine: built-ins, their parameters, and the plug-in
interface for user strategies (see strategies/interface.py)."""
