"""searchkit sokoban plugin."""
