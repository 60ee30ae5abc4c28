"""Draw standings over games as a PNG with matplotlib (Agg, imported only when drawing)."""

from __future__ import annotations

from pathlib import Path


def draw_history(
    series: dict[str, list[tuple[int, float]]],
    roles: dict[str, str | None],
    path: Path,
    *,
    title: str,
    ylabel: str,
) -> Path:
    """One stepped line per bot (x: the game's number among counted games), one panel per
    role; writes `path` (folders created) and returns it."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.ticker import MaxNLocator

    panels = sorted({roles.get(bot) or "" for bot, line in series.items() if line}) or [""]
    figure, axes = plt.subplots(
        len(panels), 1, figsize=(9, 4.5 * len(panels)), squeeze=False, layout="constrained"
    )
    try:
        for axis, panel in zip(axes[:, 0], panels, strict=True):
            for bot in sorted(series):
                if (roles.get(bot) or "") != panel:
                    continue
                if not series[bot]:
                    continue
                xs, ys = zip(*series[bot], strict=True)
                axis.plot(xs, ys, drawstyle="steps-post", label=bot)
            axis.set_title(f"{title} ({panel})" if panel else title)
            axis.set_xlabel("game")
            axis.xaxis.set_major_locator(MaxNLocator(integer=True))
            axis.set_ylabel(ylabel)
            axis.grid(True, alpha=0.3)
            handles = axis.get_legend_handles_labels()[0]
            if handles:
                axis.legend(
                    loc="upper left",
                    bbox_to_anchor=(1.01, 1),
                    fontsize="small",
                    ncols=1 + len(handles) // 25,
                )
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(path, format="png", dpi=100, bbox_inches="tight")
    finally:
        plt.close(figure)
    return path
