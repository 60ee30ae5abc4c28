"""Is my new version better? When a bot's new version becomes active, workers play it against
the version it replaced in seat-swapped pairs on shared seeds, in the ladder's spare time,
until `botarena compare`'s SPRT decides or the contest's bound is reached; never rated."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
import sqlalchemy as sa

from arena_helpers import client, new_contest, register, settle, upload
from botarena.arena import shapes
from botarena.arena import store as arena
from botarena.core.registry import available
from botarena.tournament.store import Store, bots, games, ladder_ratings, tournaments

pytestmark = pytest.mark.skipif(
    "connect4" not in available(),
    reason="connect4 is not installed: pip install --no-deps -e examples/connect4",
)

BOTS = Path(__file__).parent.parent / "examples" / "connect4" / "botarena_connect4" / "bots"


@pytest.fixture
def db_url(tmp_path: Path, request: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    """A fresh store: SQLite, or PostgreSQL when the test asks for `postgresql`."""
    if getattr(request, "param", "sqlite") == "sqlite":
        return f"sqlite:///{tmp_path / 'cup.db'}"
    from conftest import fresh_database

    monkeypatch.chdir(tmp_path)  # a PostgreSQL contest builds and keeps replays here
    return fresh_database(request.getfixturevalue("postgres_server"))


@pytest.fixture
def contest(tmp_path: Path, db_url: str, request: Any) -> Iterator[tuple[Store, Any]]:
    """A connect4 contest (`-o` the options the test passes, if any) whose bot `walker`
    has a weak version 1 (random moves) replaced by a strong version 2 (wins at once, blocks,
    else the centre); both play in-process from then on, so the games take milliseconds."""
    new_contest(db_url, tmp_path, *getattr(request, "param", ()), game="connect4")
    store = Store.open(db_url)
    with client(store) as web:
        alice = register(web, "alice")
        for source in ("random.py", "first.py"):
            upload(web, alice, "bot.py", (BOTS / source).read_text(), name="walker")
            settle(store)
        ladder = arena.contest(store, "cup")
        assert ladder is not None
        with store.transaction() as conn:
            for label, spec in (("walker", "random"), ("walker@v2", "first")):
                conn.execute(
                    bots.update()
                    .where(bots.c.tournament_id == ladder.ladder.id, bots.c.label == label)
                    .values(spec=f"builtin:connect4/{spec}")
                )
        yield store, web
    store.close()


def _work_until_decided(store: Store, web: Any) -> None:
    from botarena.tournament.executors import LocalExecutor
    from botarena.tournament.runner import work

    def decided() -> bool:
        return bool(web.get("/api/bots/walker/versions/2/compare").json()["state"] != "running")

    work(store, LocalExecutor(0), ["cup"], seconds=60, stop=decided, sandbox=False)


def _compare_games(store: Store) -> list[Any]:
    with store.engine.connect() as conn:
        tid = conn.execute(
            sa.select(tournaments.c.id).where(tournaments.c.name == "cup-compare")
        ).scalar_one()
        return list(
            conn.execute(sa.select(games).where(games.c.tournament_id == tid).order_by(games.c.id))
        )


def _claimed_in_order(store: Store) -> list[str]:
    """`compare` or `ladder` for each game played, in the order the worker claimed them."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            sa.select(tournaments.c.name)
            .join(games, games.c.tournament_id == tournaments.c.id)
            .where(games.c.status == "done", tournaments.c.name.in_(("cup", "cup-compare")))
            .order_by(games.c.claimed_at)
        ).scalars()
        return ["compare" if name == "cup-compare" else "ladder" for name in rows]


@pytest.mark.slow
@pytest.mark.parametrize("db_url", ["sqlite", "postgresql"], indirect=True)
@pytest.mark.parametrize("contest", [("compare_sprt=0,200",)], indirect=True)
def test_a_clearly_stronger_version_is_accepted_between_ladder_games(contest: Any) -> None:
    store, web = contest
    _work_until_decided(store, web)
    answer = web.get("/api/bots/walker/versions/2/compare").json()
    msgspec.convert(answer, shapes.Comparison)  # the documented shape
    assert (answer["version"], answer["against"], answer["state"]) == (2, 1, "accepted")
    assert (answer["elo0"], answer["elo1"], answer["max_games"]) == (0.0, 200.0, 400)
    assert answer["llr"] >= answer["upper"] == 2.944 and answer["lower"] == -2.944
    assert answer["llr"] == answer["line"][-1]
    counted = answer["wins"] + answer["draws"] + answer["losses"]
    assert counted == 2 * len(answer["line"]) and answer["wins"] > answer["losses"]
    played = _compare_games(store)
    assert [game["id"] for game in answer["games"]] == [row.id for row in reversed(played)]
    blocks: dict[int, list[Any]] = {}
    for row in played:
        blocks.setdefault(row.round, []).append(row)
    for block in blocks.values():  # one seed, the seats swapped
        assert [(row.idx, list(row.seats)) for row in block] == [
            (0, ["walker@v2", "walker"]),
            (1, ["walker", "walker@v2"]),
        ]
        assert block[0].seed == block[1].seed
    order = _claimed_in_order(store)
    assert order.count("compare") >= counted
    assert "compare, compare" not in ", ".join(order)  # a ladder game between any two
    with store.engine.connect() as conn:
        rated = set(conn.execute(sa.select(ladder_ratings.c.game_id)).scalars())
    assert not rated & {row.id for row in played}  # never rated
    standing = next(row for row in web.get("/api/standings").json() if row["bot"] == "walker")
    assert standing["games"] == order.count("ladder")
    game = web.get(f"/api/games/{played[0].id}").json()
    assert game["kind"] == "compare" and game["status"] == "done"
    assert web.get(f"/api/games/{played[0].id}/replay").status_code == 200


@pytest.mark.slow
@pytest.mark.parametrize("contest", [("compare_games=4",)], indirect=True)
def test_the_bound_stops_a_comparison_without_verdict_and_the_ladder_goes_on(
    contest: Any,
) -> None:
    store, web = contest
    _work_until_decided(store, web)
    answer = web.get("/api/bots/walker/versions/2/compare").json()
    assert (answer["state"], answer["max_games"]) == ("stopped", 4)
    assert len(_compare_games(store)) == 4 and len(answer["line"]) == 2
    from botarena.tournament.executors import LocalExecutor
    from botarena.tournament.runner import work

    assert work(store, LocalExecutor(0), ["cup"], games=6, sandbox=False) == 6
    assert len(_compare_games(store)) == 4  # only ladder games once it stopped


def test_a_first_version_or_an_unknown_one_has_no_comparison(contest: Any) -> None:
    _, web = contest
    first = web.get("/api/bots/walker/versions/1/compare").json()
    assert (first["state"], first["against"], first["games"], first["elo"]) == (
        "none",
        None,
        [],
        None,
    )
    assert web.get("/api/bots/walker/versions/9/compare").status_code == 404
    assert web.get("/api/bots/ghost/versions/1/compare").status_code == 404


@pytest.mark.slow
@pytest.mark.parametrize("contest", [("compare_sprt=0,200",)], indirect=True)
def test_the_bot_page_shows_the_verdict_its_line_and_the_games(browser: Any, contest: Any) -> None:
    from botarena.arena.api import arena_app
    from botarena.web.server import Server

    store, web = contest
    _work_until_decided(store, web)
    answer = web.get("/api/bots/walker/versions/2/compare").json()
    server = Server(arena_app(store, "cup"), "127.0.0.1", 0)
    stop = server.start()
    try:
        page = browser.new_context().new_page()
        console: list[str] = []
        page.on("console", lambda line: console.append(f"{line.type}: {line.text}"))
        page.goto(server.url + "bots/walker")
        page.wait_for_selector("#compare-panel")
        assert "Compare with v1" in page.inner_text("#compare-panel h3")
        assert "v2 against v1: better: accepted (H1)" in page.inner_text("#compare-panel")
        cells = page.locator("#compare tbody td").all_inner_texts()
        assert cells[0] == f"{answer['wins']}-{answer['draws']}-{answer['losses']}"
        assert cells[3] == "-2.94 … 2.94"
        points = page.get_attribute("#compare-chart polyline", "points") or ""
        assert len(points.split()) == 1 + len(answer["line"])  # from 0, one point a block
        links = page.locator("#compare-games tbody tr td:first-child").all_inner_texts()
        assert links == [str(game["id"]) for game in answer["games"]]
        assert [line for line in console if line.startswith("error")] == []
    finally:
        stop()


@pytest.mark.parametrize(
    ("option", "said"),
    [
        ("compare_sprt=10,0", "-o compare_sprt=10,0: --sprt '10,0': ELO0 must be a number below"),
        ("compare_alpha=0.5", "-o compare_alpha=0.5: a rate above 0 and below 0.5"),
        ("compare_games=0", "-o compare_games=0: a whole number, at least 1"),
    ],
)
def test_the_compare_settings_are_checked_as_compare_checks_its_own(
    tmp_path: Path, option: str, said: str
) -> None:
    from typer.testing import CliRunner

    from botarena.arena.cli import app

    args = ["new", "cup", "--game", "connect4", "--db", f"sqlite:///{tmp_path / 'cup.db'}"]
    done = CliRunner().invoke(app, [*args, "-o", option])
    assert done.exit_code == 2 and said in done.output


@pytest.mark.slow
def test_a_block_of_more_seats_puts_the_new_version_in_each_seat_against_copies(
    contest: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As `botarena compare` fills a game of more seats: copies of the old version, each
    its own label; the blocks are only made here (connect4 itself seats two)."""
    from botarena.arena import comparisons

    store, _ = contest
    monkeypatch.setattr(comparisons, "players_of", lambda contest: 3)
    runner = store.register_runner()
    claimed = comparisons.Compares(store, runner, ["cup"]).claim(set())
    assert claimed is not None and claimed[0].name == "cup-compare"
    block = [(row.idx, list(row.seats)) for row in _compare_games(store)]
    assert block == [
        (0, ["walker@v2", "walker", "walker@v1.2"]),
        (1, ["walker", "walker@v2", "walker@v1.2"]),
        (2, ["walker", "walker@v1.2", "walker@v2"]),
    ]
    with store.engine.connect() as conn:
        specs = dict(
            conn.execute(
                sa.select(bots.c.label, bots.c.spec)
                .join(tournaments, tournaments.c.id == bots.c.tournament_id)
                .where(tournaments.c.name == "cup-compare")
            ).all()
        )
    assert specs == {
        "walker@v2": "builtin:connect4/first",
        "walker": "builtin:connect4/random",
        "walker@v1.2": "builtin:connect4/random",
    }
