"""Draw standings over games as a PNG with matplotlib (Agg, imported only when drawing)."""

from __future__ import annotations

from pathlib import Path


def draw_history(series: dict[str, list[tuple[int, float]]], roles: dict[str, str | None],
                 path: Path, *, title: str, ylabel: str) -> Path:
    """One line per bot (x: the game's number among counted games), one panel per role;
    writes `path` (folders created) and returns it."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    panels = sorted({roles.get(bot) or "" for bot in series}) or [""]
    figure, axes = plt.subplots(len(panels), 1, figsize=(9, 4.5 * len(panels)), squeeze=False)
    try:
        for axis, panel in zip(axes[:, 0], panels, strict=True):
            for bot in sorted(series):
                if (roles.get(bot) or "") != panel:
                    continue
                xs, ys = zip(*series[bot], strict=True)
                axis.plot(xs, ys, marker="." if len(xs) < 50 else None, label=bot)
            axis.set_title(f"{title} ({panel})" if panel else title)
            axis.set_xlabel("game")
            axis.set_ylabel(ylabel)
            axis.grid(True, alpha=0.3)
            if axis.get_legend_handles_labels()[0]:
                axis.legend(loc="best", fontsize="small")
        figure.tight_layout()
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(path, format="png", dpi=100)
    finally:
        plt.close(figure)
    return path
