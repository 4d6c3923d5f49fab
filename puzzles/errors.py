"""The errors winnable raises for bad input: all are ValueErrors whose message quotes the input."""


class WinnableError(ValueError):
    """Base of every error about what a user gave us (a deal, a position, a game name)."""


class ParseError(WinnableError):
    """Text that is not a deal or a position: a bad card, a wrong count, a malformed line.

    `line` is the 1-based line number the problem is on, when there is one.
    """

    def __init__(self, message: str, line: int | None = None):
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


class IllegalPositionError(WinnableError):
    """A well-formed position that cannot arise in the game (e.g. an odd number of cards gone)."""


class IllegalMoveError(WinnableError):
    """A move that is not legal in the position it is applied to."""


class UnknownGameError(WinnableError):
    """A game name that is not in the registry."""


#: The most characters of a user's token an error message quotes: enough to recognise it, and a
#: message about a token of a megabyte stays one readable line.
QUOTED_CHARS = 40


def quoted(token: str) -> str:
    """`token` as an error message quotes it: its repr, cut after QUOTED_CHARS characters ('…')."""
    return repr(token if len(token) <= QUOTED_CHARS else token[:QUOTED_CHARS] + "…")


def with_long_words_cut(message: str) -> str:
    """`message` with every word of more than twice QUOTED_CHARS characters cut to QUOTED_CHARS
    ('…'): for messages made by others (click's quote an option's value whole). A token that
    `quoted` already cut, with its quotes and punctuation, stays whole."""
    return " ".join(word if len(word) <= 2 * QUOTED_CHARS else word[:QUOTED_CHARS] + "…" for word in message.split(" "))
