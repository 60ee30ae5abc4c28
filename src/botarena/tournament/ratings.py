"""Ratings from places: openskill's Plackett–Luce replayed game by game, read as μ − 3σ.

The 2011 Ants contest rated bots with TrueSkill and ranked them by the conservative estimate
μ − 3σ; openskill's Plackett–Luce model is the open, multi-player equivalent, and its
`ordinal()` is that same μ − 3σ. Only places enter the model (ties share a place), never the
difference in points. The model has no randomness, so the same records in the same order
always give the same numbers.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from botarena.tournament.records import GameRecord


def in_play_order(records: Sequence[GameRecord]) -> list[GameRecord]:
    """The records in the order the games finished (`order`), ties kept as given."""
    return sorted(records, key=lambda record: record.order)


def initial_ordinal() -> float:
    """The ordinal of a bot that has not played: the model's prior μ − 3σ."""
    from openskill.models import PlackettLuce

    return PlackettLuce().rating().ordinal()


def replay(records: Sequence[GameRecord]) -> Iterator[dict[str, float]]:
    """After each record, in the order given, the new ordinal of each bot that played it.

    A record with fewer than two seats, or one bot in two seats, is not a contest between
    bots and changes nothing (it still yields an empty dict, so callers can count games).
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    for record in records:
        if len(record.bots) < 2 or len(set(record.bots)) < len(record.bots):
            yield {}
            continue
        teams = [[ratings.get(bot) or model.rating(name=bot)] for bot in record.bots]
        rated = model.rate(teams, ranks=[float(rank) for rank in record.ranks])
        changed = {}
        for bot, [rating] in zip(record.bots, rated, strict=True):
            ratings[bot] = rating
            changed[bot] = rating.ordinal()
        yield changed


def ordinals(records: Sequence[GameRecord]) -> dict[str, float]:
    """Every rated bot's final ordinal after the records in play order."""
    final: dict[str, float] = {}
    for changed in replay(in_play_order(records)):
        final.update(changed)
    return final
