"""What the layers above core know of a game comes from its GameInfo facts and Game hooks."""

from __future__ import annotations

import json

import pytest

import botarena
from botarena.core.registry import game_info, get_game
from botarena.core.rules import Better, GameInfo, RankBy, StatusKind, TurnModel
from botarena.tournament.demo import tournaments
from botarena.web.viewdoc import view_document


def test_plain_words_become_the_enums_and_a_wrong_word_fails_at_once() -> None:
    info = GameInfo(
        "g",
        "G",
        2,
        2,
        ("A", "B"),
        "roles",
        "g-1",
        rank_by="mean-score",
        better=(1, -1),
        statuses=(("out", "strike"),),
    )
    assert (info.turn_model, info.rank_by, info.better) == (
        TurnModel.ROLES,
        RankBy.MEAN_SCORE,
        (Better.HIGHER, Better.LOWER),
    )
    assert info.roles == ("a", "b")
    assert info.status_kind("out") is StatusKind.STRIKE
    with pytest.raises(ValueError):
        GameInfo("g", "G", 2, 2, ("A", "B"), "alternating", "g-1")


def test_the_built_in_games_state_their_traditions() -> None:
    """From the contests' rules: CodeCup ranks by points, Ants 2011 and Falldown by places,
    the Labyrinth by mean score per role with the maze master wanting a low score and a
    strike throwing a game out."""
    facts = {
        name: (game_info(name).turn_model, game_info(name).rank_by, game_info(name).roles)
        for name in ("amazes", "ants", "falldown", "labyrinth")
    }
    assert facts == {
        "amazes": (TurnModel.SEQUENTIAL, RankBy.POINTS, ()),
        "ants": (TurnModel.SIMULTANEOUS, RankBy.PLACES, ()),
        "falldown": (TurnModel.SEQUENTIAL, RankBy.PLACES, ()),
        "labyrinth": (TurnModel.ROLES, RankBy.MEAN_SCORE, ("adventurers", "maze master")),
    }
    labyrinth = game_info("labyrinth")
    assert [labyrinth.score_sign(seat) for seat in (0, 1)] == [1, -1]
    assert labyrinth.status_words(StatusKind.STRIKE) == {"strike"}
    assert labyrinth.status_words(StatusKind.IRREGULAR) == {"crashed", "timeout", "invalid"}
    assert game_info("ants").status_kind("eliminated") is StatusKind.REGULAR
    assert game_info("amazes").status_words(StatusKind.STRIKE) == frozenset()


def test_the_demo_is_every_game_s_own_demo() -> None:
    own = [row for row in tournaments() if row[1] in ("amazes", "ants", "falldown", "labyrinth")]
    assert own == [
        ("demo-amazes", "amazes", ("builtin:amazes/explorer", "builtin:amazes/random"), 2),
        (
            "demo-ants",
            "ants",
            ("builtin:ants/greedy", "builtin:ants/swarm", "builtin:ants/random"),
            1,
        ),
        (
            "demo-falldown",
            "falldown",
            (
                "builtin:falldown/hunter",
                "builtin:falldown/random",
                "hunter2=builtin:falldown/hunter",
                "random2=builtin:falldown/random",
            ),
            1,
        ),
        (
            "demo-labyrinth",
            "labyrinth",
            (
                "builtin:labyrinth/cartographer",
                "builtin:labyrinth/wallfollower",
                "builtin:labyrinth/warden",
                "builtin:labyrinth/static",
            ),
            1,
        ),
    ]


def _replay(game: str, **options: object) -> dict:
    """A replay as read from its file."""
    bots = [f"builtin:{game}/random"] * 2
    return json.loads(
        json.dumps(
            botarena._play(
                game,
                bots,
                seed=3,
                map=None,
                replay=None,
                options=options,
                observe=lambda document: None,
            ).document
        )
    )


def test_the_viewer_asks_the_game_for_what_its_frames_lack() -> None:
    ants = _replay("ants", turns=4)
    document = view_document(ants)
    assert set(document["derived"]) - {"io", "end_reasons"} == {
        "ants",
        "food",
        "hills",
        "viewradius2",
        "attackradius2",
        "rows",
        "cols",
        "water",
    }
    assert all("reply" not in act for step in document["replay"]["steps"] for act in step["acts"])
    assert get_game("amazes").viewer_data is None
    amazes = _replay("amazes", turns=3)
    shown = view_document(amazes)
    assert (shown["replay"], list(shown["derived"])) == (amazes, ["io", "end_reasons"])


def test_the_viewer_and_the_site_word_an_end_reason_as_the_game_does() -> None:
    """Amazes' rule text ends a game by sudden death or when both took their turns."""
    derived = view_document(_replay("amazes", turns=3))["derived"]
    assert derived["end_reasons"] == {
        "turns": "both players took all their turns",
        "sudden_death": "sudden death: a player caught the other once the whole maze was "
        "discovered",
    }
    info = game_info("amazes")
    assert info.end_text("sudden_death") == derived["end_reasons"]["sudden_death"]
    assert info.end_text("strike: something new") == "strike: something new"


def test_a_replay_of_a_game_not_installed_is_shown_as_it_is() -> None:
    replay = {"schema_version": 1, "game": "nosuchgame", "steps": []}
    assert set(view_document(replay)["derived"]) == {"io"}


def test_each_game_s_renderer_is_served_from_its_own_package() -> None:
    from importlib import resources

    from starlette.requests import Request

    from botarena.web.server import renderer
    from botarena.web.viewdoc import page

    served = page({"url": "replay.json.gz"}, inline=False)
    for name in ("amazes", "ants", "falldown", "labyrinth"):
        assert f'<script src="static/games/{name}.js"></script>' in served
        own = resources.files(f"botarena.games.{name}").joinpath("renderer.js").read_text()
        response = renderer(Request({"type": "http", "path_params": {"game": name}}))
        assert (response.status_code, response.body.decode()) == (200, own)
        assert f"Botarena.renderers.{name} = " in own
    assert '<script src="static/generic.js"></script>' in served
    missing = renderer(Request({"type": "http", "path_params": {"game": "nosuchgame"}}))
    assert missing.status_code == 404


def test_a_map_says_how_many_players_it_is_for() -> None:
    """The 2011 map maze_04p_01 is a 4-player map (its name and its `players 4` line)."""
    ants = get_game("ants")
    assert ants.players_of(ants.read_map("ants:maze_04p_01")) == 4
    assert get_game("falldown").players_of(object()) is None


def test_a_default_is_parsed_as_a_given_value_would_be() -> None:
    """An option's default goes through its parser and bounds like `-o` text (#38): a range
    default written as text reaches the rules as the tuple `-o walls=3,5` gives, and a
    tuple's text form is LOW,HIGH."""
    from botarena.core.rules import GameError, GameInfo, Option

    def walls(text: str) -> tuple[int, int]:
        low, high = (int(part) for part in text.split(","))
        return low, high

    info = GameInfo(
        name="walled",
        title="Walled",
        min_seats=2,
        max_seats=2,
        seat_names=("A", "B"),
        turn_model="sequential",
        rules_version="walled-1",
        options=(Option("walls", "3,5", "walls: LOW,HIGH", walls, 0, 9),),
    )
    assert info.resolve_options({}) == {"walls": (3, 5)}
    assert info.resolve_options({"walls": (2, 4)}) == {"walls": (2, 4)}
    assert info.option("walls").text_of((2, 4)) == "2,4"
    with pytest.raises(GameError, match="option walls: 12 is above the maximum 9"):
        info.resolve_options({"walls": [1, 12]})
