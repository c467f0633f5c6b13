"""Coworkers: AI workers with a lasting identity that take tasks (docs/coworkers.md)."""
