"""Module sizes (bench/sizes.py) as figures, outside the games' rules: modules over 700
lines and classes over 250, and the largest of each."""

from __future__ import annotations

from sizes import CLASS_LIMIT, MODULE_LIMIT, sizes


def run(quick: bool) -> list[dict]:
    judged = [size for size in sizes() if size.judged]
    flagged = [size for size in judged if size.flags]
    biggest = max(judged, key=lambda size: size.lines)
    widest = max(judged, key=lambda size: size.longest_class[1])
    return [
        {
            "name": f"modules over {MODULE_LIMIT} lines (games' rules aside)",
            "value": sum(size.lines > MODULE_LIMIT for size in flagged),
            "unit": "modules",
            "goal": "0",
        },
        {
            "name": f"classes over {CLASS_LIMIT} lines (games' rules aside)",
            "value": sum(size.longest_class[1] > CLASS_LIMIT for size in flagged),
            "unit": "classes",
            "goal": "0",
        },
        {"name": f"largest module: {biggest.path}", "value": biggest.lines, "unit": "lines"},
        {
            "name": f"longest class: {widest.longest_class[0]} ({widest.path})",
            "value": widest.longest_class[1],
            "unit": "lines",
        },
    ]
