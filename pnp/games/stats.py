"""Numbers and their text in a simulation report, shared by pnp.play.simulate and the games'
report sections (so every section rounds and prints alike)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def round4(value: float) -> float:
    return round(value, 4)


def stats(values: Sequence[float]) -> dict[str, float | int | None]:
    if not values:
        return {"mean": None, "min": None, "max": None}
    return {"mean": round4(sum(values) / len(values)), "min": min(values), "max": max(values)}


def share(count: float, total: int) -> float:
    return round4(count / total) if total else 0.0


def counted(counter: Mapping[str, float], total: int) -> dict[str, dict[str, float]]:
    return {key: {"count": counter[key], "share": share(counter[key], total)}
            for key in sorted(counter)}


def fmt_stats(stats: Mapping[str, Any], money: bool = False) -> str:
    if stats.get("mean") is None:
        return "n/a"
    if money:
        return f"mean {stats['mean']:,.0f}, min {stats['min']:,}, max {stats['max']:,}"
    return f"mean {stats['mean']:.2f}, min {stats['min']:g}, max {stats['max']:g}"


def pct(share: float) -> str:
    return f"{share * 100:.1f}%"
