"""searchkit npuzzle plugin."""
