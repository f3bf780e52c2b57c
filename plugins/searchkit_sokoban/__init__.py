"""searchkit sokoban plugin: level files, push search with deadlock pruning, LURD output."""
