"""Work over many deals: surveys, generated puzzles, reports, and files written whole."""
