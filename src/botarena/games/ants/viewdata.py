"""What the Ants renderer needs that a replay's frames do not hold (the `viewer_data` hook).

Ants frames hold only scores and counts, so the ants' lives (spawn, moves, end), food and
hills are re-simulated here with the rules, as the 2011 replay stores them; the replies they
come from are then dropped from the replay shown.
"""

from __future__ import annotations

from typing import Any


def viewer_data(replay: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(derived, replay without the replies the derived data replaces), for schema 1."""
    if replay.get("schema_version") != 1:
        return {}, replay
    from botarena.games.ants.replay2011 import replay_data, state_from_botarena

    state = state_from_botarena(replay)
    data = replay_data(state)
    derived = {key: data[key] for key in ("ants", "food", "hills", "viewradius2", "attackradius2")}
    derived["rows"], derived["cols"] = data["map"]["rows"], data["map"]["cols"]
    derived["water"] = [
        "".join("%" if char == "%" else "." for char in line) for line in data["map"]["data"]
    ]
    steps = [
        {
            "acts": [
                {key: value for key, value in act.items() if key not in ("packed", "reply")}
                for act in step["acts"]
            ],
            "frame": step["frame"],
        }
        for step in replay["steps"]
    ]
    return derived, {**replay, "steps": steps}
