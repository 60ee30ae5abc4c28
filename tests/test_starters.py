"""`botarena GAME starter LANG`: every game's starter in Python, C++ and Java is written,
built (by the tournament's build step) and plays a whole game against built-in bots without
a fault; the three languages of a game play one strategy, move for move, and beat the
contest's default sample bot in most games (#37); the command's messages, refusals and Ants'
older `starter FILE` form."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from botarena import play
from botarena.core.starters import file_name

TOOLS = {"python": (), "cpp": ("g++",), "java": ("javac", "java")}
# game, role, the seats (BOT marks the starter's), options, the end reasons of a whole game
GAMES = [
    ("amazes", None, ["BOT", "builtin:amazes/explorer"], [], {"turns", "sudden_death"}),
    (
        "falldown",
        None,
        ["BOT", "builtin:falldown/hunter", "builtin:falldown/random", "builtin:falldown/random"],
        ["-o", "turns=400"],
        {"turns", "survivor"},
    ),
    (
        "ants",
        None,
        ["BOT", "builtin:ants/random"],
        ["-o", "turns=60"],
        {"turn limit reached", "lone survivor", "food not being gathered", "rank stabilized"},
    ),
    (
        "labyrinth",
        "adventurers",
        ["BOT", "builtin:labyrinth/static"],
        ["-o", "max_rounds=2"],
        {"round_cap", "turns"},
    ),
    (
        "labyrinth",
        "master",
        ["builtin:labyrinth/wallfollower", "BOT"],
        ["-o", "max_rounds=2"],
        {"round_cap", "turns"},
    ),
]
STEMS = {"adventurers": "adventurers", "master": "master", None: "bot"}
LANGUAGES = ["python", "cpp", "java"]
# game, role, the seats against the sample (BOT marks the starter's), short options; the
# sample is `_default_sample`'s: the game's `random` bot, Labyrinth's first (cartographer)
AGAINST_SAMPLE = [
    ("amazes", None, ["BOT", "builtin:amazes/random"], {}),
    ("falldown", None, ["BOT", *["builtin:falldown/random"] * 3], {"turns": 400}),
    ("ants", None, ["BOT", "builtin:ants/random"], {"turns": 200}),
    ("labyrinth", "adventurers", ["BOT", "builtin:labyrinth/static"], {"max_rounds": 3}),
    ("labyrinth", "master", ["builtin:labyrinth/cartographer", "BOT"], {"max_rounds": 3}),
]
SEEDS = range(1, 7)


def botarena(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "botarena", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=600,
    )


@pytest.mark.slow
@pytest.mark.parametrize("language", ["python", "cpp", "java"])
@pytest.mark.parametrize(
    ("game", "role", "seats", "options", "ends"),
    GAMES,
    ids=[f"{game}-{role or 'bot'}" for game, role, *_ in GAMES],
)
def test_starter_builds_and_plays_a_whole_game(
    tmp_path, game, role, seats, options, ends, language
):
    missing = [tool for tool in TOOLS[language] if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed")
    from botarena.tournament.build import build_bot

    role_args = ["--role", role] if role else []
    made = botarena(game, "starter", language, "-o", str(tmp_path / "src"), *role_args)
    assert made.returncode == 0, made.stderr
    source = tmp_path / "src" / file_name(STEMS[role], language)
    assert made.stdout.splitlines()[0] == f"wrote {source}"
    spec = build_bot(source, tmp_path / "cache", name="starter")
    bots = [spec if seat == "BOT" else seat for seat in seats]
    played = botarena("play", game, *bots, "--seed", "5", *options, "--json")
    assert played.returncode == 0, played.stderr
    result = json.loads(played.stdout)
    assert [player["status"] for player in result["players"]] == ["ok"] * len(seats), result
    assert [player["faults"] for player in result["players"]] == [0] * len(seats)
    assert result["end_reason"] in ends


@pytest.fixture(scope="module")
def starter(tmp_path_factory):
    """The play spec of a packaged starter (game, role, language), each built once with the
    tournament's build step; skips when the language's tools are missing."""
    from importlib.resources import files

    from botarena.tournament.build import build_bot

    cache = tmp_path_factory.mktemp("starters")
    built: dict[tuple[str, str | None, str], str] = {}

    def spec(game: str, role: str | None, language: str) -> str:
        missing = [tool for tool in TOOLS[language] if shutil.which(tool) is None]
        if missing:
            pytest.skip(f"{', '.join(missing)} not installed")
        if (game, role, language) not in built:
            name = file_name(STEMS[role], language)
            source = Path(str(files(f"botarena.games.{game}.starters") / name))
            if language == "python":
                built[game, role, language] = f"{sys.executable} {source}"
            else:
                built[game, role, language] = build_bot(source, cache, name="starter")
        return built[game, role, language]

    return spec


def beats_the_sample(game, role, seats, options, spec, seed) -> bool:
    """Whether the starter did better than the sample in the game on `seed`: a better rank
    than every other seat; in Labyrinth, where each role is ranked only within its role
    (both seats rank 1), the master holds the sample's score below what the built-in static
    master allows on that seed, and the adventurers (who never meet the sample: it is an
    adventurers bot too) solve every maze the static master draws."""
    bots = [spec if seat == "BOT" else seat for seat in seats]
    players = play(game, bots, seed=seed, sandbox=False, **options).players
    mine = players[seats.index("BOT")]
    if role == "master":
        static = ["builtin:labyrinth/cartographer", "builtin:labyrinth/static"]
        reference = play(game, static, seed=seed, **options).players[0].score
        return mine.status == "ok" and mine.score < reference
    if role == "adventurers":
        return mine.status == "ok" and mine.score > 1000 * (options["max_rounds"] - 1)
    return all(mine.rank < other.rank for other in players if other is not mine)


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("game", "role", "seats", "options"),
    AGAINST_SAMPLE,
    ids=[f"{game}-{role or 'bot'}" for game, role, *_ in AGAINST_SAMPLE],
)
def test_starter_beats_the_sample_in_most_games(starter, game, role, seats, options, language):
    spec = starter(game, role, language)
    won = [seed for seed in SEEDS if beats_the_sample(game, role, seats, options, spec, seed)]
    assert len(won) > len(SEEDS) / 2, f"won only on seeds {won}"


def moves(replay: Path, seat: int) -> list[object]:
    """What a seat did, step by step, as the game recorded it: its acts without their
    timing and raw text (Python's `json.dumps` spaces a list, C++'s text does not), with the
    frame the game drew after each step."""
    steps = json.loads(replay.read_text())["steps"]
    return [
        (
            [
                {key: value for key, value in act.items() if key not in ("ms", "cpu_s", "reply")}
                for act in step["acts"]
                if act["seat"] == seat
            ],
            step["frame"],
        )
        for step in steps
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "role", "seats", "options"),
    AGAINST_SAMPLE,
    ids=[f"{game}-{role or 'bot'}" for game, role, *_ in AGAINST_SAMPLE],
)
def test_every_language_plays_the_same_moves(starter, tmp_path, game, role, seats, options):
    """Same seed, same opponent: the C++ and Java starters do exactly what the Python one does."""
    played = {}
    for language in LANGUAGES:
        spec = starter(game, role, language)
        bots = [spec if seat == "BOT" else seat for seat in seats]
        replay = tmp_path / f"{language}.json"
        play(game, bots, seed=2, sandbox=False, replay=replay, **options)
        played[language] = moves(replay, seats.index("BOT"))
    assert played["python"][0] and played["cpp"] == played["python"]
    assert played["java"] == played["python"]


@pytest.mark.slow
def test_the_printed_commands_build_and_play(tmp_path):
    """What the command prints, run as printed from the folder it was run in."""
    made = botarena("amazes", "starter", "cpp", "-o", "mine", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    lines = made.stdout.splitlines()
    assert lines == [
        "wrote mine/bot.cpp",
        "build: g++ -O2 -o mine/bot mine/bot.cpp",
        "play:  botarena play amazes mine/bot builtin:amazes/explorer",
    ]
    if shutil.which("g++") is None:
        pytest.skip("g++ not installed")
    subprocess.run(shlex.split(lines[1].removeprefix("build: ")), cwd=tmp_path, check=True)
    play = shlex.split(lines[2].removeprefix("play:  "))[1:]
    result = json.loads(botarena(*play, "--json", cwd=tmp_path).stdout)
    assert result["players"][0]["status"] == "ok"


def test_messages_and_refusals(tmp_path):
    made = botarena("labyrinth", "starter", "java", "--role", "master", cwd=tmp_path)
    assert made.stdout.splitlines() == [
        "wrote Master.java",
        "build: javac -d . Master.java",
        "play:  botarena play labyrinth builtin:labyrinth/cartographer 'java -cp . Master'",
    ]
    assert (tmp_path / "Master.java").read_text().count("public class Master") == 1
    again = botarena("labyrinth", "starter", "java", "--role", "master", cwd=tmp_path)
    assert (again.returncode, again.stderr) == (
        2,
        "botarena: error: Master.java: already exists; not overwriting it\n",
    )
    wrong = botarena("falldown", "starter", "rust", cwd=tmp_path)
    assert (wrong.returncode, wrong.stderr) == (
        2,
        "botarena: error: unknown language 'rust'; choose python, cpp or java\n",
    )
    role = botarena("amazes", "starter", "python", "--role", "master", cwd=tmp_path)
    assert (role.returncode, role.stderr) == (
        2,
        "botarena: error: unknown role 'master'; amazes has bot\n",
    )


def test_ants_older_form_still_writes_the_python_starter(tmp_path):
    """`botarena ants starter FILE.py` as before; `ants starter python` writes the same bot."""
    old = botarena("ants", "starter", str(tmp_path / "mine.py"))
    assert old.returncode == 0, old.stderr
    new = botarena("ants", "starter", "python", "-o", str(tmp_path))
    assert new.returncode == 0, new.stderr
    assert (tmp_path / "mine.py").read_text() == (tmp_path / "bot.py").read_text()
