"""Foundations every layer shares: the error root, units, the workspace, the disk cache, limits."""
