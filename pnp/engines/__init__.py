"""Pure rules engines, one module per game, found through the registry."""
