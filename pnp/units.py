"""Millimetres to PDF points: layouts are written in mm, reportlab draws in points."""

from __future__ import annotations

MM = 72.0 / 25.4
