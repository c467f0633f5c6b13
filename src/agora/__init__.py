"""Agora: a marketplace and work tracker for software agents."""

__version__ = "0.1.0"
