"""Reports on a survey database: per game and variant, the deals, the winnable share with its
Wilson interval (unknown deals counted both ways) and the distribution of solve times, and for a
game that values every player (Etalage) the mean guarantee by seat, for an optimisation how
many scores are proven optimal; as a table, as JSON, or as a matplotlib figure."""

from __future__ import annotations

import io
import math
import os
import statistics
from dataclasses import dataclass

from ..result import UNKNOWN, UNWINNABLE, WINNABLE
from .survey import Store, Summary


def percentile(ascending: list[float], share: float) -> float:
    """The nearest-rank percentile of sorted values (share 0.5 is the median)."""
    index = min(len(ascending) - 1, max(0, round(share * (len(ascending) - 1))))
    return ascending[index]


@dataclass
class Seats:
    """The players' values (a survey row's `players`) over a group's deals: the mean guarantee
    by seat (does leading first help?) over the deals whose guarantees are all exact, with its
    standard error and how often seat 1, who leads the first trick, is sure of the least; and
    how often a player's cooperative best is proven above their guarantee."""

    deals: int
    exact_deals: int
    mean_guaranteed: list[float] | None  # None with no exact deal (no seat has a mean)
    standard_errors: list[float] | None  # of those means; None with fewer than two exact deals
    leader_lowest: int  # exact deals whose seat 1 has a guarantee below every other seat's
    pairs: int  # (player, deal)
    cooperative_above: int  # the cooperative best's proven least above the guarantee's proven most
    cooperative_not_above: int  # the cooperative best's proven most at the guarantee's proven least
    undecided: int  # searched, neither proven
    not_searched: int  # cooperative best not searched (survey --guarantees-only)

    @classmethod
    def of(cls, deals: list[list[dict]]) -> Seats | None:
        if not deals:
            return None
        exact = [deal for deal in deals if all(p["guaranteed"] == p["guaranteed_bound"] for p in deal)]
        seats = max(len(deal) for deal in exact) if exact else 0
        by_seat = [[deal[seat]["guaranteed"] for deal in exact] for seat in range(seats)]
        means = [statistics.fmean(values) for values in by_seat] if exact else None
        errors = [statistics.stdev(values) / math.sqrt(len(values)) for values in by_seat] if len(exact) > 1 else None
        lowest = sum(deal[0]["guaranteed"] < min(p["guaranteed"] for p in deal[1:]) for deal in exact)
        pairs = [p for deal in deals for p in deal]
        searched = [p for p in pairs if p["cooperative_best"] is not None]
        above = sum(p["cooperative_best"] > p["guaranteed_bound"] for p in searched)
        not_above = sum(p["cooperative_bound"] <= p["guaranteed"] for p in searched)
        return cls(len(deals), len(exact), means, errors, lowest, len(pairs), above, not_above,
                   len(searched) - above - not_above, len(pairs) - len(searched))

    def to_json(self) -> dict:
        return {"deals": self.deals, "exact_deals": self.exact_deals,
                "mean_guaranteed": self.mean_guaranteed and [round(mean, 6) for mean in self.mean_guaranteed],
                "se_guaranteed": self.standard_errors and [round(error, 6) for error in self.standard_errors],
                "leader_lowest": self.leader_lowest, "pairs": self.pairs,
                "cooperative_above": self.cooperative_above, "cooperative_not_above": self.cooperative_not_above,
                "undecided": self.undecided, "not_searched": self.not_searched}

    def line(self) -> str:
        means = ", ".join(f"{mean:.2f}" for mean in self.mean_guaranteed or ()) or "-"
        errors = ("standard errors " + ", ".join(f"{error:.2f}" for error in self.standard_errors) + "; "
                  if self.standard_errors else "")
        lowest = f"; seat 1, who leads first, lowest in {self.leader_lowest}" if self.exact_deals else ""
        seats = (f"mean guarantee by seat {means} ({errors}over {self.exact_deals} of {self.deals} deals, those "
                 f"with every guarantee exact{lowest})")
        if self.not_searched == self.pairs:
            return seats + "; cooperative bests not searched"
        return (seats + f"; cooperative best above the guarantee in {self.cooperative_above} of "
                f"{self.pairs} (player, deal) pairs, not above in {self.cooperative_not_above}, "
                f"undecided in {self.undecided}" + (f", not searched in {self.not_searched}" if self.not_searched else ""))


@dataclass
class Scores:
    """An optimisation's scores over a group's deals (a survey row's `score`, the best value its
    line reaches, and `score_bound`, the proven bound): how many are proven optimal, their
    mean, and how far the others are from their bounds."""

    deals: int  # with a score
    optimal: int  # score equal to its bound
    mean_optimal: float | None  # the mean of the optimal scores
    mean_gap: float | None  # the mean distance from score to bound of the others that have a bound
    no_bound: int  # rows stored before the bound was (schema version 3)

    @classmethod
    def of(cls, scores: list[tuple[int, int | None]]) -> Scores | None:
        if not scores:
            return None
        optimal = [score for score, bound in scores if score == bound]
        gaps = [abs(bound - score) for score, bound in scores if bound is not None and bound != score]
        return cls(len(scores), len(optimal), sum(optimal) / len(optimal) if optimal else None,
                   sum(gaps) / len(gaps) if gaps else None, sum(bound is None for _, bound in scores))

    def to_json(self) -> dict:
        def rounded(mean):
            return None if mean is None else round(mean, 6)

        return {"deals": self.deals, "optimal": self.optimal, "mean_optimal": rounded(self.mean_optimal),
                "mean_gap": rounded(self.mean_gap), "no_bound": self.no_bound}

    def line(self) -> str:
        text = f"score proven optimal in {self.optimal} of {self.deals} deals"
        if self.optimal:
            text += f" (mean {self.mean_optimal:.2f})"
        if self.mean_gap is not None:
            text += f"; the others within {self.mean_gap:.2f} of their proven bounds on average"
        if self.no_bound:
            text += f"; {self.no_bound} stored without a bound (before schema version 3)"
        return text


@dataclass
class Group:
    """The stored deals of one game and variant."""

    summary: Summary
    seconds: list[float]  # ascending
    seats: Seats | None = None  # for a game that values every player
    scores: Scores | None = None  # for an optimisation

    def times(self) -> dict:
        s = self.seconds
        return {
            "median": percentile(s, 0.5), "p90": percentile(s, 0.9), "p99": percentile(s, 0.99),
            "max": s[-1], "mean": sum(s) / len(s), "total": sum(s),
        }

    def to_json(self) -> dict:
        return {**self.summary.to_json(), "seconds": self.times(), "players": self.seats and self.seats.to_json(),
                "scores": self.scores and self.scores.to_json()}


def groups(store: Store) -> list[Group]:
    """One Group per (game, variant) in the store, by game and variant."""
    return [Group(store.summary(game, variant), store.seconds(game, variant), *values(store, game, variant))
            for game, variant in store.groups()]


def values(store: Store, game: str, variant: str, seeds: range | None = None) -> tuple[Seats | None, Scores | None]:
    """The Seats of a game that values every player, or else the Scores of an optimisation (a
    row's score there is the player to move's guarantee, which the seats say with the rest)."""
    seats = Seats.of(store.players(game, variant, seeds))
    return seats, None if seats else Scores.of(store.scores(game, variant, seeds))


def label(summary: Summary) -> str:
    return f"{summary.game} ({summary.variant})" if summary.variant else summary.game


def table(report: list[Group]) -> str:
    """A plain-text table, one line per game and variant."""
    header = ("game", "deals", WINNABLE, UNWINNABLE, UNKNOWN, "share", "Wilson 95%", "median s", "p90 s", "p99 s", "max s")
    lines = [header]
    for group in report:
        summary, times = group.summary, group.times()
        low, high = summary.interval
        lines.append((
            label(summary), str(summary.deals), *(str(summary.verdicts[v]) for v in (WINNABLE, UNWINNABLE, UNKNOWN)),
            f"{100 * summary.share:.2f}%", f"{100 * low:.2f}-{100 * high:.2f}%",
            *(f"{times[key]:.6f}" for key in ("median", "p90", "p99", "max")),
        ))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    rows = [
        "  ".join(cell.ljust(width) if i == 0 else cell.rjust(width) for i, (cell, width) in enumerate(zip(line, widths)))
        for line in lines
    ]
    notes = [f"{label(group.summary)}: {block.line()}" for group in report for block in (group.seats, group.scores) if block]
    return "\n".join(rows + notes)


#: The file formats a plot is written in, each chosen by its suffix (.png, ...).
PLOT_FORMATS = ("png", "svg", "pdf")


def plot_format(path: str) -> str | None:
    """The format of a plot written to `path`, by its suffix; None if it is none of PLOT_FORMATS."""
    suffix = os.path.splitext(path)[1].lower().removeprefix(".")
    return suffix if suffix in PLOT_FORMATS else None


#: Markers and line styles that tell apart the groups whose colours repeat (matplotlib's cycle
#: has ten colours): the 11th group's is the 1st's colour, with the next marker and line style.
MARKERS = ("o", "s", "^", "D")
LINE_STYLES = ("-", ":", "-.", (0, (6, 2, 1, 2, 1, 2)))


#: The most groups whose legend the times' panel holds inside it.
LEGEND_INSIDE = 6


def style(index: int) -> tuple[str, str, object]:
    """The colour, marker and line style of the index-th group of a plot."""
    turn = index // 10 % len(MARKERS)
    return f"C{index % 10}", MARKERS[turn], LINE_STYLES[turn]


def plot(report: list[Group], file_format: str) -> bytes:
    """A figure with two panels: the winnable share of each game and variant with its interval,
    and the distribution of solve times (log scale), in `file_format` (one of PLOT_FORMATS)."""
    from matplotlib.figure import Figure  # the Agg canvas: no display needed, no global state

    # a row of the shares' panel per group, tall enough for the label above its bar (with a
    # fixed height, 22 groups put each label on the next row up); a legend of many groups
    # goes beside the times' panel, where it covers no bar
    many = len(report) > LEGEND_INSIDE
    figure = Figure(figsize=(14 if many else 11, max(4.5, 1.5 + 0.4 * len(report))), layout="constrained")
    shares, times = figure.subplots(1, 2, width_ratios=(1, 1.6))
    names = [label(group.summary) for group in report]
    for y, group in enumerate(report):
        summary = group.summary
        low, high = summary.interval
        color, marker, _ = style(y)
        shares.errorbar(
            100 * summary.share, y, xerr=[[100 * max(0.0, summary.share - low)], [100 * max(0.0, high - summary.share)]],
            fmt=marker, capsize=6, color=color,
        )
        shares.annotate(
            f"{100 * summary.share:.2f}% of {summary.deals}  [{100 * low:.2f}, {100 * high:.2f}]",
            (100 * summary.share, y), textcoords="offset points", xytext=(0, 10), ha="center", fontsize=8,
        )
    shares.set_yticks(range(len(report)), names)
    shares.set_ylim(len(report) - 0.3, -0.7)  # first group on top
    shares.set_xlabel("winnable, %  (bars: Wilson 95%, unknown both ways)")
    shares.set_title("Winnability")
    shares.grid(axis="x", alpha=0.3)

    smallest = max(1e-6, min(group.seconds[0] for group in report))
    largest = max(smallest * 10, max(group.seconds[-1] for group in report))
    edges = [smallest * (largest / smallest) ** (i / 40) for i in range(41)]
    for y, group in enumerate(report):
        color, _, line_style = style(y)
        shown = [min(max(seconds, smallest), largest) for seconds in group.seconds]  # 0 s (hand-edited) in the first bin
        times.hist(shown, bins=edges, histtype="step", linewidth=1.5, color=color, linestyle=line_style,
                   label=names[y])
        times.axvline(percentile(group.seconds, 0.5), color=color, linestyle="--", linewidth=1)
    times.set_xscale("log")
    times.set_yscale("log")
    times.set_xlabel("seconds per deal (dashed: median)")
    times.set_ylabel("deals")
    times.set_title("Solve times")
    times.legend(fontsize=8, **({"loc": "upper left", "bbox_to_anchor": (1.01, 1)} if many else {}))
    drawn = io.BytesIO()
    figure.savefig(drawn, format=file_format, dpi=110)
    return drawn.getvalue()
