"""Pure layout math: paper and component presets, imposition into slots, print marks."""
