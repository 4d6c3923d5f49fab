"""Reading the 'name: value' text formats of the games with numbered hands (`hand 1:`) and the
numbers in every game's text, and counting in their messages."""

from __future__ import annotations

import re

from .errors import ParseError, quoted

#: The most digits a number in a game's text may have: more than any card, count or score
#: needs, and far below the 4300 digits beyond which int() refuses a string.
MAX_DIGITS = 9
#: A number as a game's text writes it: ASCII digits alone (`\d` and str.isdigit() also take
#: other scripts' digits, '²' and '①', some of which int() refuses), at most MAX_DIGITS of them.
NUMBER = rf"[0-9]{{1,{MAX_DIGITS}}}"
_HAND = re.compile(rf"^hand\s+({NUMBER})$")
#: A whole number as options, seed ranges and variant labels write it: ASCII digits, with a sign,
#: of any length (seeds and limits run to 20 digits); int() alone also takes '1_000' and other
#: scripts' digits.
DECIMAL = re.compile(r"[+-]?[0-9]+")


def parse_number(text: str, line: int | None, what: str) -> int:
    """`text` as a number; ParseError naming `what` (`hand 1`, `to-move`) and the line unless it
    is a NUMBER."""
    if not (text.isascii() and text.isdigit()):
        negative = text[:1] == "-" and text[1:].isascii() and text[1:].isdigit()
        raise ParseError(f"{quoted(text)} in {what} is {'below 0' if negative else 'not a number'}", line)
    if len(text) > MAX_DIGITS:
        raise ParseError(f"'{text[:MAX_DIGITS]}...' in {what} has {len(text)} digits; "
                         f"a number here has at most {MAX_DIGITS}", line)
    return int(text)


def decimal(text: str) -> int:
    """`text` (spaces around it allowed, as int() allows them) as a DECIMAL; ValueError otherwise."""
    if not DECIMAL.fullmatch(text.strip()):
        raise ValueError(f"{quoted(text)} is not a whole number")
    return int(text)


def amount(n: int, word: str) -> str:
    """'1 card', '3 cards'."""
    return f"{n} {word}{'s' * (n != 1)}"


def named_lines(text: str, known: dict[str, str]) -> tuple[dict[str, tuple[str, int]], dict[int, tuple[str, int]]]:
    """The fields (by name, among `known`) and the hands (by number) of a text, each as
    (value, line number); comments after '#' and blank lines are skipped. ParseError for a line
    that is not 'name: value', an unknown name, a repeated line, or hands not numbered 1..N."""
    fields: dict[str, tuple[str, int]] = {}
    hands: dict[int, tuple[str, int]] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, colon, value = line.partition(":")
        name = " ".join(name.lower().split())
        if not colon:
            raise ParseError(f"{quoted(line)} is not a 'name: value' line ({', '.join(['hand 1', *known])})", number)
        match = _HAND.match(name)
        target = hands if match else fields
        key = int(match.group(1)) if match else name
        if not match and name not in known:
            raise ParseError(f"unknown line {quoted(name)}; expected 'hand N:' or one of {', '.join(known)}", number)
        if key in target:
            raise ParseError(f"a second {quoted(name)} line (first on line {target[key][1]})", number)
        target[key] = (value.strip(), number)
    if not hands:
        raise ParseError("no 'hand 1:' line")
    if 0 in hands:
        raise ParseError("'hand 0:': hands are numbered from 1", hands[0][1])
    missing = [n for n in range(1, max(hands)) if n not in hands]
    if missing:
        raise ParseError(f"no 'hand {missing[0]}:' line, though there is a 'hand {max(hands)}:' line"
                         f" (hands are numbered 1, 2, ... with none left out)", hands[max(hands)][1])
    return fields, hands
