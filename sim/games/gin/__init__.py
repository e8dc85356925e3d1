"""Gin Rummy (RULES.md Part 3), played as OpenSpiel's gin_rummy plays it."""
