"""What every benchmark script prints: seconds-per-deal rows and an aligned two-column table."""

from __future__ import annotations

import statistics

from solver.batch.report import percentile
from solver.batch.survey import wilson


def seconds_rows(seconds: list[float], slowest_seed: int | None) -> list[tuple[str, str]]:
    """Median, p90, p99, max (with its seed) and total of per-deal seconds, sorted ascending."""
    return [
        ("median s/deal", f"{statistics.median(seconds):.6f}"),
        ("p90 s/deal", f"{percentile(seconds, 0.90):.6f}"),
        ("p99 s/deal", f"{percentile(seconds, 0.99):.6f}"),
        ("max s/deal", f"{seconds[-1]:.6f} (seed {slowest_seed})"),
        ("total s", f"{sum(seconds):.3f}"),
    ]


def share(count: int, total: int) -> str:
    """A rate with its Wilson 95% interval: '78.0% [68.9, 85.0]'."""
    low, high = wilson(count, total)
    return f"{100 * count / total:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def print_rows(rows: list[tuple[str, str]]) -> None:
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}", flush=True)
