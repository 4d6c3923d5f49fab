"""Reference rules, one module per game: parse, format, legal moves, apply, won or lost."""

from . import etalage, quick_and_easy, sir_tommy, stapelen, the_game, twaalven
from .one_foundation import ALL_IN_A_ROW, BLACK_HOLE

#: Every game's rules by its command-line name.
RULES = {rules.NAME: rules for rules in (twaalven, stapelen, ALL_IN_A_ROW, BLACK_HOLE, the_game, sir_tommy, etalage, quick_and_easy)}
