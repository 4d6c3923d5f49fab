"""Reference rules, one module per game: parse, format, legal moves, apply, won or lost."""
