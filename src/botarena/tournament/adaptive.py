"""The adaptive schedule: whole rounds of the round robin (or of the roles' pairings) until
the order of the top K is established with the requested confidence (stats/settle.py).

A round is every game of the base schedule once (every pairing, seats rotated, `games per
pair` times) on seeds of its own. After each round every bot's mean result in each round is
computed from the counted games (Labyrinth strikes excluded, as in the standings): its score
where the game ranks by points or mean score (a role that wants a low score, Labyrinth's maze
master, is ranked low-first), its place score where the game ranks by places (the share of
the other seats it placed above, a shared place counting half). In role games each role is
settled on its own; the tournament stops when every role's top K is settled, or after
`max rounds`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from botarena.stats.settle import MIN_ROUNDS, RoundEvidence, Settlement
from botarena.tournament.records import GameRecord

DEFAULT_TOP = 5
DEFAULT_CONFIDENCE = 0.95
DEFAULT_MAX_ROUNDS = 100


@dataclass(frozen=True)
class Group:
    """Bots ranked together (one role, or everybody) and which way is better."""

    role: str | None
    bots: tuple[str, ...]
    higher_is_better: bool


def round_of(record: GameRecord, games_per_pair: int) -> int:
    """The round a game belongs to, from the index in its stable key (the games of round r
    have indices (r - 1) * games_per_pair ... r * games_per_pair - 1)."""
    index = int(record.key.rsplit("/", 2)[-2])
    return index // games_per_pair + 1


def place_score(record: GameRecord, seat: int) -> float:
    """The share of the other seats this seat placed above, a shared place counting half."""
    mine = record.ranks[seat]
    others = [rank for other, rank in enumerate(record.ranks) if other != seat]
    return (sum(rank > mine for rank in others) + 0.5 * sum(rank == mine for rank in others)) / len(
        others
    )


def groups(game: str, bots: Sequence[str], roles: dict[str, str | None]) -> list[Group]:
    """The groups a game's standings rank separately, with their direction."""
    from botarena.games import get_game

    rules = get_game(game)
    if rules.info.turn_model != "roles":
        return [Group(None, tuple(sorted(bots)), True)]
    signs = rules.env_spec.reward_signs if rules.env_spec is not None else None
    out = []
    for seat, name in enumerate(rules.info.seat_names):
        role = name.lower()
        members = tuple(sorted(bot for bot in bots if roles.get(bot) == role))
        out.append(Group(role, members, not signs or signs[seat] > 0))
    return out


def decide(
    game: str,
    bots: Sequence[str],
    roles: dict[str, str | None],
    finished: Sequence[GameRecord],
    games_per_pair: int,
    top: int,
    confidence: float,
) -> list[tuple[Group, Settlement]]:
    """Each group's settlement from the finished games of complete rounds."""
    from botarena.tournament.ranking import counted_games, default_rank_by

    by_place = default_rank_by(game) == "places"
    counted = counted_games(game, finished)
    out = []
    for group in groups(game, bots, roles):
        members = set(group.bots)
        per_round: dict[int, dict[str, list[float]]] = {}
        for record in counted:
            values = per_round.setdefault(round_of(record, games_per_pair), {})
            for seat, bot in enumerate(record.bots):
                if bot in members:
                    value = place_score(record, seat) if by_place else record.scores[seat]
                    values.setdefault(bot, []).append(value)
        evidence = RoundEvidence(group.bots, group.higher_is_better)
        for number in sorted(per_round):
            values = per_round[number]
            if all(bot in values for bot in group.bots):  # a round every bot played in
                evidence.add([sum(values[bot]) / len(values[bot]) for bot in group.bots])
        out.append((group, evidence.settle(top, confidence)))
    return out


def settled(decisions: Sequence[tuple[Group, Settlement]]) -> bool:
    """Every group with at least two bots is settled (a group of one has nothing to settle)."""
    return all(decision.settled for group, decision in decisions if len(group.bots) > 1)


def describe(
    decisions: Sequence[tuple[Group, Settlement]], rounds: int, max_rounds: int
) -> list[str]:
    """Lines for the standings: the stopping decision and its evidence."""
    lines = []
    for group, decision in decisions:
        who = f"{group.role}: " if group.role else ""
        if len(group.bots) < 2:
            continue
        if decision.rounds < MIN_ROUNDS:
            state = f"not settled yet ({decision.rounds} complete rounds; needs {MIN_ROUNDS})"
        elif decision.settled:
            state = (
                f"settled after {decision.rounds} rounds: the top {decision.top} order"
                f" has probability {decision.probability:.3f}"
                f" >= {decision.confidence:g}"
            )
        else:
            ended = (
                f"not settled (stopped at the maximum of {max_rounds} rounds)"
                if rounds >= max_rounds
                else "not settled yet"
            )
            state = (
                f"{ended}: the top {decision.top} order has probability"
                f" {decision.probability:.3f} < {decision.confidence:g}"
                f" after {decision.rounds} rounds"
            )
        lines.append(f"adaptive · {who}{state}")
        for pair in decision.neighbours:
            lines.append(
                f"  {pair.better} above {pair.worse}: mean difference"
                f" {pair.difference:+.4g} a round, probability {pair.probability:.3f}"
            )
    return lines
