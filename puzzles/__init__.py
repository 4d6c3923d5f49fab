"""Reference rules, one module per game: parse, format, legal moves, apply, won or lost."""

from . import twaalven

#: Every game's rules module by its command-line name.
RULES = {module.NAME: module for module in (twaalven,)}
