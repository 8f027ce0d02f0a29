"""Exports for the tools around a playtest: Tabletop Simulator, print shops, contact sheets, tuck boxes, calibration."""
