"""Small bar charts as server-rendered SVG (no script, no inline style: the colours are classes
in app.css, so the strict CSP holds). Each chart is a ``role="img"`` with a title and a
description that says its figures in words; templates/macros.html ``bar_chart`` draws it."""

from __future__ import annotations

from dataclasses import dataclass, field

WIDTH, HEIGHT = 320, 96
TOP, BOTTOM = 6, 18  # room above the tallest bar, and for the first/last labels below
MIN_SLOTS = 14  # a bar is never wider than a day's of a 14-day chart


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    css: str  # a class of app.css: chart-up, chart-down, chart-bar, chart-empty
    title: str


@dataclass(frozen=True)
class Chart:
    id: str
    title: str
    description: str
    bars: list[Bar] = field(default_factory=list)
    first_label: str = ""
    last_label: str = ""
    width: int = WIDTH
    height: int = HEIGHT


def bars(
    chart_id: str,
    title: str,
    points: list[tuple[str, float | None, str]],
    *,
    description: str,
    css: str = "chart-bar",
    top: float | None = None,
) -> Chart:
    """One bar per point (label, value or None for no data, the value in words); heights
    relative to ``top`` (the largest value when not given)."""
    values = [v for _, v, _ in points if v is not None]
    scale = top if top is not None else max(values, default=0.0)
    room = HEIGHT - TOP - BOTTOM
    step = WIDTH / max(len(points), MIN_SLOTS)
    out = []
    for i, (label, value, words) in enumerate(points):
        if value is None or scale <= 0:
            height, kind = 2.0, "chart-empty"
        else:
            height, kind = max(2.0, room * min(value, scale) / scale), css
        out.append(
            Bar(
                x=round(i * step + step * 0.1, 2),
                y=round(TOP + room - height, 2),
                width=round(step * 0.8, 2),
                height=round(height, 2),
                css=kind,
                title=f"{label}: {words}",
            )
        )
    return Chart(
        id=chart_id,
        title=title,
        description=description,
        bars=out,
        first_label=points[0][0] if points else "",
        last_label=points[-1][0] if points else "",
    )


def availability(chart_id: str, checks: list[tuple[str, bool]]) -> Chart:
    """The checks oldest first: a tall bar when the agent answered, a short red one when not."""
    up = sum(1 for _, ok in checks if ok)
    if checks:
        words = (
            f"{up} of the last {len(checks)} checks found it available, from {checks[0][0]} "
            f"to {checks[-1][0]}."
        )
    else:
        words = "Not checked yet."
    chart = bars(
        chart_id,
        "Availability over time",
        [(when, 1.0 if ok else 0.25, "available" if ok else "unavailable") for when, ok in checks],
        description=words,
        top=1.0,
    )
    marked = [
        Bar(b.x, b.y, b.width, b.height, "chart-up" if ok else "chart-down", b.title)
        for b, (_, ok) in zip(chart.bars, checks, strict=True)
    ]
    return Chart(
        chart.id, chart.title, chart.description, marked, chart.first_label, chart.last_label
    )
