"""Krónikás: Cheat and Thirty-One over HTTP, kept as event logs in Redis."""

__version__ = "0.1.0"
