"""How likely a hunter that has discovered the whole maze lands on the square the bot ends on.

The hunter reads its squared distance to the bot, so it knows the bot is on one ring of
squares around itself; it must pick one and walk there. Two kinds of hunter are weighed:
one that knows where the bot stood before this move and weighs each ring square by how
likely the bot walked there (a filter over the distance history, the strong kind), and
one that walks to the ring square nearest to itself (the simple kind). The bot is safe
where many ring squares are as likely as its own, and on the hunter's own square (a turn
never ends where it began).
"""

from __future__ import annotations

from botarena.games.amazes.bots.tracking import Tracker, Walks, distance2, move_weight, ring

NEAREST_SHARE = 0.3
"""Weight of the nearest-square hunter; the filter hunter has the rest."""
HUNTERS, HUNTER_FLOOR = 4, 0.05
"""At most this many of the opponent's likeliest squares are weighed, each this likely."""


def guess_chance(walks: Walks, hunter: int, me: int, square: int) -> float:
    """The chance that a hunter on `hunter` guesses `square`, the bot having moved there
    from `me`."""
    if square == hunter:
        return 0.0
    candidates = ring(walks.map, hunter, distance2(hunter, square))
    total = sum(move_weight(walks, me, other) for other in candidates)
    mine = move_weight(walks, me, square)
    filtered = mine / total if total > 0 else 1.0
    near = walks.steps(hunter, square)
    closer = [walks.steps(hunter, other) for other in candidates]
    nearest = 0.0
    if min(closer, default=near) >= near:
        nearest = 1.0 / sum(1 for steps in closer if steps == near)
    return (1 - NEAREST_SHARE) * filtered + NEAREST_SHARE * nearest


def hunters(tracker: Tracker) -> list[tuple[float, int]]:
    """The opponent squares worth weighing, with their chances."""
    return tracker.likeliest(HUNTERS, HUNTER_FLOOR)


def risk(walks: Walks, threats: list[tuple[float, int]], me: int, square: int) -> float:
    """The chance of being caught on `square` if the opponent hunts (`threats` from
    `hunters`)."""
    return sum(p * guess_chance(walks, hunter, me, square) for p, hunter in threats)
