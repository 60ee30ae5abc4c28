"""Falldown rules, slot by slot: literal positions against the research file's arithmetic
(the research notes on the JavaChallenge engine, §2) and the decisions in docs/games/falldown.md."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from botarena.core.rules import GameError, Status
from botarena.games.falldown.rules import (
    FalldownState,
    Start,
    block_of,
    draw_starts,
    new_state,
    parse_starts,
)

FAR = "0,0,R/17,0,L/0,17,R/17,17,L"
"""Four corners: nobody is near anybody."""


def state_from(start: str = FAR, turns: int = 1000) -> FalldownState:
    return new_state(0, {"start": start, "turns": turns}, None, 4)


def play(state: FalldownState, *commands: str) -> None:
    """One slot per command, for whoever acts in it."""
    for command in commands:
        state.apply({state.turn % 4: command})


def block(state: FalldownState, row: int, column: int) -> int:
    return state.observation(0).blocks[row * 6 + column]


def test_the_research_probe_attack_up_from_block_row_2() -> None:
    """Attack in slot 2 facing up from block row 2: slot 4 shows 2 and 6 above; slot 6
    shows -19 (fell at the end of slot 5) and 4; slot 10 shows -15."""
    state = state_from("0,0,R/17,0,L/7,7,U/17,17,L")
    play(state, "N", "N", "A", "N")
    assert state.turn == 4
    assert (block(state, 1, 2), block(state, 0, 2)) == (2, 6)
    play(state, "N", "N")
    assert (block(state, 1, 2), block(state, 0, 2)) == (-19, 4)
    play(state, "N", "N", "N", "N")
    assert block(state, 1, 2) == -15
    assert block(state, 0, 2) == -19  # fell at the end of slot 2 + 8 - 1 = 9


def test_a_fallen_block_stands_again_20_slots_after_it_fell() -> None:
    state = state_from("0,0,R/17,0,L/7,7,U/17,17,L")
    play(state, "N", "N", "A", *["N"] * 3)  # block (1, 2) fell at the end of slot 5
    assert block(state, 1, 2) == -19
    play(state, *["N"] * 19)
    assert state.turn == 25 and block(state, 1, 2) == 0  # standing from slot 5 + 20
    state = state_from("0,0,R/17,0,L/7,7,U/17,17,L")
    play(state, "N", "N", "A", *["N"] * 3, *["N"] * 18)
    assert state.turn == 24 and block(state, 1, 2) == -1


def test_an_attack_freezes_the_attacker_for_its_next_two_turns() -> None:
    state = state_from()
    play(state, "A")
    assert state.observation(0).players[0] == (0, 0, "R", 2)
    play(state, "N", "N", "N", "D")  # slot 4: player 0 says D but must wait
    assert state.observation(0).players[0] == (0, 0, "R", 1)
    assert state.commands[4] == "N"
    play(state, "N", "N", "N", "D")
    assert state.observation(0).players[0] == (0, 0, "R", 0)
    play(state, "N", "N", "N", "D")  # slot 12: 12 slots after the attack it acts again
    assert state.observation(0).players[0] == (0, 1, "D", 0)


def test_an_attack_skips_falling_blocks_and_goes_on_past_them() -> None:
    state = state_from("0,7,R/4,16,U/0,17,R/17,17,L")
    play(state, "A")  # slot 0: block row 2, columns 1..5 at 4, 8, 12, 16, 20
    play(state, "A")  # slot 1: column 1 upwards from row 5: rows 4, 3, (2 skipped), 1, 0
    assert [block(state, row, 1) for row in range(6)] == [19, 15, 2, 7, 3, 0]
    assert [block(state, 2, column) for column in range(6)] == [0, 2, 6, 10, 14, 18]


def test_an_attack_towards_the_edge_hits_nothing_but_still_costs_the_wait() -> None:
    state = state_from("0,0,U/17,0,L/0,17,R/17,17,L")
    play(state, "A")
    assert all(value == 0 for value in state.observation(0).blocks)
    assert state.observation(0).players[0][3] == 2


def test_moves_blocked_by_the_edge_a_fallen_block_or_a_near_player_still_turn() -> None:
    state = state_from("0,0,R/5,0,L/0,17,R/17,17,L")
    play(state, "U")  # off the board
    assert state.observation(0).players[0] == (0, 0, "U", 0)
    play(state, "N", "N", "N", "R")  # (1,0) is at distance 4 from (5,0): allowed
    assert state.observation(0).players[0] == (1, 0, "R", 0)
    play(state, "N", "N", "N", "R")  # (2,0) is at distance 3: refused, facing R
    assert state.observation(0).players[0] == (1, 0, "R", 0)
    assert state.commands[8] == "R"  # a refused move is logged with its letter
    state = state_from("2,6,R/5,4,L/0,17,R/17,17,L")
    play(state, "N", "A")  # slot 1: block (row 1, column 0) falls at the end of slot 4
    play(state, *["N"] * 6, "U")  # slot 8: (2,5) lies in that fallen block
    assert block(state, 1, 0) == -15
    assert state.observation(0).players[0] == (2, 6, "U", 0)


def test_a_block_that_is_only_falling_can_be_entered_and_takes_its_player_down() -> None:
    state = state_from("0,5,D/17,0,L/0,11,U/17,17,L")
    play(state, "N", "N", "A", "N")  # row 2 (y 6..8) falls at the end of slot 5
    play(state, "D")  # slot 4: (0,6) is 5 from (0,11): player 0 enters the falling block
    assert state.observation(0).players[0] == (0, 6, "D", 0)
    play(state, "N")  # end of slot 5: the block falls with player 0
    assert state.observation(1).players[0] == (-1, -1, "D", 0)
    assert state.frame()["falls"] == [0] and state.frame()["fallen_blocks"] == [12]


def test_a_fallen_players_slot_still_counts_and_logs_its_last_command() -> None:
    state = state_from("0,5,D/17,0,L/0,11,U/17,17,L")
    play(state, "N", "N", "A", "N", "D", "N")
    assert not state.alive[0] and state.to_act() == [2]
    play(state, "N", "N", "U")  # slot 8: player 0's slot; its bot is still asked
    assert state.to_act() == [1]
    assert state.commands[8] == "D"  # its last command, as the engine logs it


def test_the_last_two_falling_together_is_a_draw_after_all_slots() -> None:
    state = state_from("15,6,L/17,8,D/10,7,R/17,14,U", turns=40)
    play(state, "A", "A", "N", "A")  # 0 drops 2 (slot 7), 1 drops 3 (slot 8), 3 drops 0+1
    falls = {}
    while not state.is_over():
        play(state, "N")
        if state.frame()["falls"]:
            falls[state.turn - 1] = state.frame()["falls"]
    assert falls == {7: [2], 8: [3], 10: [0, 1]}
    assert state.turn == 40 and state.winner() == -1
    outcome = state.outcome()
    assert outcome.scores == [0, 0, 0, 0] and outcome.end_reason == "turns"
    assert outcome.ranks == [1, 1, 1, 1]


def test_the_last_survivor_wins_and_ends_the_game_at_once() -> None:
    state = state_from("15,6,L/17,8,R/10,7,R/17,14,U")
    play(state, "A", "A", "N", "A")  # 1 attacks the edge: 3 survives 0 and 1 falling
    while not state.is_over():
        play(state, "N")
    assert state.turn == 11 and state.alive == [False, False, False, True]
    outcome = state.outcome()
    assert outcome.scores == [0, 0, 0, 1] and outcome.ranks == [2, 2, 2, 1]
    assert outcome.end_reason == "survivor"


def test_a_stopped_bot_stays_on_the_board_doing_nothing() -> None:
    state = state_from()
    state.fault(1, Status.TIMEOUT, "no complete reply in time")
    play(state, "R")
    assert state.to_act() == []
    state.apply({})
    assert state.commands[1] == "N" and state.observation(0).players[1] == (17, 0, "L", 0)
    assert state.to_act() == [2]


def test_frames_carry_what_the_viewer_draws() -> None:
    state = state_from()
    play(state, "A")
    frame = state.frame()
    assert frame["slot"] == 0 and frame["seat"] == 0 and frame["command"] == "A"
    assert frame["blocks"][0] == [0, 3, 7, 11, 15, 19]
    assert frame["players"][0] == {"x": 0, "y": 0, "facing": "R", "wait": 2, "alive": True}
    assert frame["falls"] == [] and frame["fallen_blocks"] == []
    assert state.header() == {
        "initial": [["0", "0", "R"], ["17", "0", "L"], ["0", "17", "R"], ["17", "17", "L"]],
        "max_turns": 1000,
    }


@pytest.mark.parametrize(
    "text, problem",
    [
        ("0,0,R/17,0,L/0,17,R", "3 starts"),
        ("0,0,R/17,0,L/0,17,R/17,17", "is not X,Y,D"),
        ("0,0,R/17,0,L/0,17,R/a,17,L", "must be integers"),
        ("0,0,R/17,0,L/0,17,R/18,17,L", "off the 18x18 board"),
        ("0,0,R/17,0,L/0,17,R/17,17,Q", "facing 'Q'"),
        ("0,0,R/3,0,L/0,17,R/17,17,L", "within Manhattan distance 3"),
    ],
)
def test_bad_start_options_are_refused_with_the_reason(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        parse_starts(text)


def test_the_start_option_is_column_first_like_the_engine() -> None:
    assert parse_starts("0,14,D/14,17,L/14,10,U/2,5,R")[0] == Start(0, 14, "D")
    state = state_from("0,14,D/14,17,L/14,10,U/2,5,R")
    assert state.observation(0).players[1] == (14, 17, "L", 0)


def test_falldown_needs_four_seats() -> None:
    with pytest.raises(GameError, match="4-player"):
        new_state(0, {}, None, 3)


@given(st.integers(0, 2**32))
@settings(max_examples=60, deadline=None)
def test_starts_drawn_from_any_seed_are_more_than_3_apart(seed: int) -> None:
    import random

    starts = draw_starts(random.Random(seed))
    assert starts == draw_starts(random.Random(seed))
    for p, a in enumerate(starts):
        assert 0 <= a.x < 18 and 0 <= a.y < 18 and a.facing in "URDL"
        for b in starts[:p]:
            assert abs(a.x - b.x) + abs(a.y - b.y) > 3


@given(st.integers(0, 10_000), st.lists(st.sampled_from("URDLAN"), min_size=1, max_size=400))
@settings(max_examples=80, deadline=None)
def test_invariants_hold_whatever_the_commands(seed: int, commands: list[str]) -> None:
    """Living players stay more than 3 apart and on standing-or-falling blocks; block values
    stay in -19..20; waits in 0..2; a fallen player never comes back."""
    state = new_state(seed, {}, None, 4)
    fallen: set[int] = set()
    for command in commands:
        if state.is_over():
            break
        play(state, command)
        view = state.observation(0)
        assert all(-19 <= value <= 20 for value in view.blocks)
        living = [p for p in range(4) if state.alive[p]]
        assert fallen.isdisjoint(living)
        fallen |= set(range(4)) - set(living)
        for p in living:
            x, y, _, wait = view.players[p]
            assert 0 <= wait <= 2
            assert view.blocks[block_of(x, y)] >= 0 or state.frame()["falls"]
            for q in living:
                if q != p:
                    qx, qy = view.players[q][:2]
                    assert abs(x - qx) + abs(y - qy) > 3
        for p in fallen:
            assert view.players[p][:2] == (-1, -1)


class EngineModel:
    """A literal re-telling of the engine's slot (research §2): 36 countdown timers refreshed
    in block-row order every slot; used to cross-check the event-driven rules."""

    def __init__(self, starts: tuple[Start, ...]) -> None:
        self.turn = 0
        self.life = [0] * 36
        self.players = [[s.x, s.y, "URDL".index(s.facing), 0, True] for s in starts]

    def slot(self, command: str) -> None:
        me = self.players[self.turn % 4]
        if me[4]:
            if me[3] > 0:
                command = "N"
            if command == "A":
                bx, by = me[0] // 3 + (0, 1, 0, -1)[me[2]], me[1] // 3 + (-1, 0, 1, 0)[me[2]]
                n = 1
                while 0 <= bx < 6 and 0 <= by < 6:
                    if self.life[by * 6 + bx] == 0:
                        self.life[by * 6 + bx] = 4 * n
                    n += 1
                    bx, by = bx + (0, 1, 0, -1)[me[2]], by + (-1, 0, 1, 0)[me[2]]
                me[3] = 3
            elif command in "URDL":
                me[2] = "URDL".index(command)
                nx, ny = me[0] + (0, 1, 0, -1)[me[2]], me[1] + (-1, 0, 1, 0)[me[2]]
                if (
                    0 <= nx < 18
                    and 0 <= ny < 18
                    and self.life[(ny // 3) * 6 + nx // 3] >= 0
                    and all(
                        abs(nx - o[0]) + abs(ny - o[1]) > 3
                        for o in self.players
                        if o is not me and o[4]
                    )
                ):
                    me[0], me[1] = nx, ny
            if me[3] > 0:
                me[3] -= 1
        for index in range(36):
            if self.life[index] > 0:
                self.life[index] -= 1
                if self.life[index] == 0:
                    self.life[index] = -19
                    for p in self.players:
                        if p[4] and (p[1] // 3) * 6 + p[0] // 3 == index:
                            p[4] = False
            elif self.life[index] < 0:
                self.life[index] += 1
        self.turn += 1

    def view(self) -> tuple:
        return (
            tuple(self.life),
            tuple(
                (p[0], p[1], "URDL"[p[2]], p[3]) if p[4] else (-1, -1, "URDL"[p[2]], p[3])
                for p in self.players
            ),
        )


@given(
    st.integers(0, 10_000),
    st.sampled_from(["URDLAN", "AAAURDL", "AAAAAAAU", "URDL"]),
    st.integers(0, 2**32),
)
@settings(max_examples=60, deadline=None)
def test_the_rules_agree_with_a_literal_model_of_the_engine(
    seed: int, alphabet: str, draws: int
) -> None:
    import random

    state = new_state(seed, {"turns": 600}, None, 4)
    model = EngineModel(state.starts)
    rng = random.Random(draws)
    while not state.is_over():
        command = rng.choice(alphabet)
        play(state, command)
        model.slot(command)
        view = state.observation(0)
        assert (view.blocks, view.players) == model.view(), f"after slot {state.turn - 1}"
