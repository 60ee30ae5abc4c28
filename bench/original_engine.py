"""Bench rows comparing a game under botarena with the same game under its original engine,
which is timed only where a user has it installed and names it in an environment variable."""

from __future__ import annotations


def compared(
    game: str, engine: str, variable: str, ours_s: float, theirs_s: float | None, ratio_goal: str
) -> list[dict]:
    """The original engine's row (`not run` with the variable to set when `theirs_s` is
    None) and, when it ran, botarena's time over the engine's."""
    if theirs_s is None:
        return [
            {
                "name": f"{game} the same game under the {engine} (set {variable})",
                "value": "not run",
                "unit": "",
                "goal": "",
            }
        ]
    return [
        {
            "name": f"{game} the same game under the {engine}",
            "value": theirs_s,
            "unit": "s",
            "goal": "",
        },
        {
            "name": f"{game} botarena / {engine}",
            "value": ours_s / theirs_s,
            "unit": "x",
            "goal": ratio_goal,
        },
    ]
