"""The adaptive schedule: whole rounds of the round robin (or of the roles' pairings) until
the order of the top K is established with the requested confidence (stats/settle.py).

A round is every game of the base schedule once (every pairing, seats rotated, `games per
pair` times) on seeds of its own. After each round every bot's mean result in each round is
computed from the counted games (strike games excluded, as in the standings): its score
where the game ranks by points or mean score (a role that wants a low score, `GameInfo.better`
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
    from botarena.core.registry import get_game

    rules = get_game(game)
    if not rules.info.roles:
        return [Group(None, tuple(sorted(bots)), True)]
    out = []
    for seat, role in enumerate(rules.info.roles):
        members = tuple(sorted(bot for bot in bots if roles.get(bot) == role))
        out.append(Group(role, members, rules.info.score_sign(seat) > 0))
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
            ties = sum(pair.verdict == "tied" for pair in decision.neighbours)
            state = (
                f"settled after {decision.rounds} rounds at confidence {decision.confidence:g}"
                f" (spent over every look): every neighbouring pair of the top {decision.top}"
                " is ordered" + (f" or tied ({ties} tied)" if ties else "")
            )
        else:
            ended = (
                f"not settled (stopped at the maximum of {max_rounds} rounds)"
                if rounds >= max_rounds
                else "not settled yet"
            )
            state = (
                f"{ended} after {decision.rounds} rounds: a neighbouring pair of the top"
                f" {decision.top} is neither ordered nor tied at confidence"
                f" {decision.confidence:g}"
            )
        lines.append(f"adaptive · {who}{state}")
        final = rounds >= max_rounds
        for pair in decision.neighbours:
            relation = {"ordered": "above", "tied": "tied with"}.get(pair.verdict, "vs")
            lines.append(
                f"  {pair.better} {relation} {pair.worse}: mean difference"
                f" {pair.difference:+.4g} a round, P(above) {pair.probability:.3f}"
                + (
                    ""
                    if pair.verdict != "open"
                    else " (too close to call: a tie as far as these rounds tell)"
                    if final
                    else " (open)"
                )
            )
    return lines
