"""Original JavaScript posts under Node: the post format, the controller's bot environment,
syntax errors with the post's line numbers, check-post, and the seeded RNG port."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import botarena
from botarena import load_replay
from botarena.cli import app
from botarena.core.replay import verify
from botarena.core.spec import BotSpecError
from botarena.games.labyrinth.post import (
    PostError,
    load_post,
    parse_post,
    runner_argv,
)
from botarena.games.labyrinth.rng import seeded_random
from conftest import debian_program

POSTS = Path(botarena.__file__).parent / "games" / "labyrinth" / "posts"

# An independent reference of the controller's RNG, written from the algorithms'
# definitions (MurmurHash3's constants for bryc's xmur3a, the sfc32 recurrence on a
# Uint32Array), not from runner.js or rng.py: seeded with the hash's first three outputs
# and a counter of 1, 15 draws thrown away.
REFERENCE_JS = r"""
function hashOf(text) {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
        let k = Math.imul(text.charCodeAt(i), 0xcc9e2d51);
        k = (k << 15) | (k >>> 17);
        h ^= Math.imul(k, 0x1b873593);
        h = (h << 13) | (h >>> 19);
        h = (Math.imul(h, 5) + 0xe6546b64) | 0;
    }
    h ^= text.length;
    return () => {
        h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b);
        h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35);
        h ^= h >>> 16;
        return h >>> 0;
    };
}
function counterGenerator(seed) {
    const next = hashOf(seed);
    const s = new Uint32Array([next(), next(), next(), 1]);
    return () => {
        const t = (s[0] + s[1] + s[3]) >>> 0;
        s[3] += 1;
        s[0] = s[1] ^ (s[1] >>> 9);
        s[1] = s[2] + (s[2] << 3);
        s[2] = ((s[2] << 21) | (s[2] >>> 11)) + t;
        return t / 2 ** 32;
    };
}
const out = {};
for (const seed of JSON.parse(process.argv[1])) {
    const draw = counterGenerator(seed);
    for (let i = 0; i < 15; i++) draw();
    out[seed] = Array.from({length: 40}, draw);
}
process.stdout.write(JSON.stringify(out));
"""

SEEDS = [
    "abc:A",
    "abc:M",
    "",
    ":A",
    "12345:M",
    "café:A",
    "迷宫:M",
    "🐉 dragon:A",
    "tab\there:M",
    "a" * 300 + ":A",
]

ENVIRONMENT_POST = """# Adventurers: probe

```js
const names = [typeof window, typeof self, typeof globalThis, typeof document,
               typeof require, typeof process];
let fired = false;
const timer = setTimeout(() => { fired = true; }, 0);
const me = {
    startRound(n) { return null; },
    takeTurn(vision) {
        let errorLogs = "absent";
        try { console.error("x"); } catch (err) { errorLogs = err.name; }
        return [0, 0, names, timer === undefined, fired, Object.keys(console), errorLogs,
                this === me];
    },
};
return me;
```
"""


@pytest.fixture(scope="module", autouse=True)
def node() -> str:
    return debian_program("node", "nodejs")


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def talk(path: str, calls: list[dict[str, Any]]) -> list[str]:
    """Run a post under the runner and return its reply lines to `calls`."""
    lines = "".join(json.dumps(call) + "\n" for call in calls)
    done = subprocess.run(
        runner_argv(path, load_post(path)),
        input=lines,
        text=True,
        capture_output=True,
        timeout=30,
        check=True,
    )
    return done.stdout.splitlines()


# -- the post format -------------------------------------------------------------------
def test_parse_fenced_post_keeps_role_name_and_first_code_line() -> None:
    text = "# Maze Master: The Minotaur\n\nblurb\n\n```javascript\nreturn 1;\n```\n\n```\nx\n```"
    post = parse_post(text)
    assert (post.role, post.name, post.code, post.first_line) == (
        "maze master",
        "The Minotaur",
        "return 1;",
        6,
    )


def test_parse_indented_post_and_only_first_block() -> None:
    post = parse_post("# Adventurers: duo\nblurb\n\n    let a = 1;\n\treturn a;\n\nmore\n\n    x\n")
    assert (post.role, post.code, post.first_line, post.indented) == (
        "adventurers",
        "let a = 1;\nreturn a;",
        4,
        True,
    )


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "the post is empty"),
        ("Adventurers: x\n\n    return {}\n", "line 1: no header"),
        ("# Wizard: merlin\n\n    return {}\n", "unknown submission type 'Wizard'"),
        ("# Adventurers: x\n\nno code at all\n", "no code block"),
    ],
)
def test_parse_rejects_what_is_not_a_post(text: str, problem: str) -> None:
    with pytest.raises(PostError, match=problem):
        parse_post(text)


def test_load_post_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "x.md", "no header here\n")
    with pytest.raises(BotSpecError, match=r"x\.md: line 1: no header"):
        load_post(path)


# -- the environment the original controller gives bots --------------------------------
def test_environment_matches_the_original_controller(tmp_path: Path) -> None:
    path = write(tmp_path, "probe.md", ENVIRONMENT_POST)
    replies = talk(
        path,
        [
            {"call": "setup", "args": ["adventurers", "s:A"]},
            {"call": "startRound", "args": [3]},
            {"call": "takeTurn", "args": [[]]},
        ],
    )
    assert replies[:2] == ['"ready"', "null"]
    assert json.loads(replies[2]) == [
        0,
        0,
        ["undefined"] * 6,
        True,
        False,
        ["log"],
        "TypeError",
        True,
    ]


LINKED_CELLS_POST = """# Maze Master: linked

```js
return {
    generateMaze(n) {
        const maze = [];
        for (let r = 0; r < n; r++) {
            maze.push([]);
            for (let c = 0; c < n; c++) maze[r].push({east: r + c === 1, south: 0, links: []});
        }
        for (let r = 0; r < n; r++)
            for (let c = 0; c < n; c++)
                maze[r][c].links.push(maze[(r + 1) % n][c], maze[r][(c + 1) % n], maze[r][c]);
        maze.self = maze;
        return maze;
    },
    takeTurn() { return null; },
};
```
"""

ODD_ADVENTURERS_POST = """# Adventurers: odd

```js
let grid;
return {
    startRound: n => grid = (() => { const g = {n}; g.self = g; return g; })(),
    takeTurn() { return Int8Array.of(1, 4); },
};
```
"""


@pytest.mark.slow
def test_what_no_rule_reads_is_never_walked(tmp_path: Path) -> None:
    """The controller reads a maze cell's `east` and `south` and ignores startRound's value:
    a maze whose cells link to each other (a cycle) is a maze, and a cyclic startRound
    value is no strike. A typed array is answered as the array it acts as."""
    master = write(tmp_path, "linked.md", LINKED_CELLS_POST)
    replies = talk(
        master,
        [{"call": "setup", "args": ["maze master", "s:M"]}, {"call": "generateMaze", "args": [3]}],
    )
    cell = {"east": False, "south": 0, "links": {}}  # below the cell: only truth counts
    assert json.loads(replies[1]) == [
        [cell, cell | {"east": True}, cell],
        [cell | {"east": True}, cell, cell],
        [cell, cell, cell],
    ]
    adventurers = write(tmp_path, "odd.md", ODD_ADVENTURERS_POST)
    replies = talk(
        adventurers,
        [
            {"call": "setup", "args": ["adventurers", "s:A"]},
            {"call": "startRound", "args": [3]},
            {"call": "takeTurn", "args": [[]]},
        ],
    )
    assert replies == ['"ready"', "null", "[1,4]"]
    result = botarena.play(
        "labyrinth", [f"post:{adventurers}", f"post:{master}"], seed="s", max_rounds=2
    )
    # one adventurer walks into a wall for good, the other turns on the spot: no strike
    assert result.end_reason == "turns"
    assert [p.status for p in result.players] == ["ok", "ok"]


ESCAPE_POST = """# Adventurers: escape

```js
const reach = thing => thing.constructor.constructor("return typeof process")();
const tries = () => [reach(random), reach(Math.random), reach(performance),
                     reach(Function("return this")()), reach(_logs_)];
const atBuild = tries();
return {startRound() {}, takeTurn(vision) { return [atBuild, tries(), reach(vision)]; }};
```
"""


def test_nothing_handed_to_a_post_reaches_node(tmp_path: Path) -> None:
    """The classic way out of a vm realm, a constructor of an object made by Node's realm,
    finds nothing: every object the bot gets and its realm's global are its realm's own."""
    path = write(tmp_path, "escape.md", ESCAPE_POST)
    replies = talk(
        path,
        [{"call": "setup", "args": ["adventurers", "s:A"]}, {"call": "takeTurn", "args": [[]]}],
    )
    assert json.loads(replies[1]) == [["undefined"] * 5, ["undefined"] * 5, "undefined"]


def test_random_and_math_random_are_one_seeded_stream(tmp_path: Path) -> None:
    """`random` and `Math.random` are the same generator, seeded with the setup seed."""
    path = write(
        tmp_path,
        "dice.md",
        "# Maze Master: dice\n\n```js\nreturn {generateMaze() {},"
        " takeTurn() { return [random(), Math.random(), random(), Math.random()]; }};"
        "\n```\n",
    )
    replies = talk(
        path,
        [
            {"call": "setup", "args": ["maze master", "seed é:M"]},
            {"call": "takeTurn", "args": [1, [], []]},
            {"call": "takeTurn", "args": [1, [], []]},
        ],
    )
    draw = seeded_random("seed é:M")
    expected = [draw() for _ in range(8)]
    assert json.loads(replies[1]) + json.loads(replies[2]) == expected


def test_rng_port_matches_independent_javascript_reference(node: str) -> None:
    done = subprocess.run(
        [node, "-e", REFERENCE_JS, json.dumps(SEEDS)],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    reference = json.loads(done.stdout)
    for seed in SEEDS:
        draw = seeded_random(seed)
        assert [draw() for _ in range(40)] == reference[seed], seed


def test_a_game_sees_seed_plus_role_suffix(tmp_path: Path) -> None:
    """Through a whole game: the adventurers' post draws from seed + ':A', the maze
    master's from seed + ':M', each from its 16th draw on."""
    adventurers = write(
        tmp_path,
        "walker.md",
        """# Adventurers: walker

```js
const path = [1, 1, 2, 1, 1];
let t = 0;
return {
    startRound() {},
    takeTurn() { return [path[t++], 0, random(), Math.random()]; },
};
```
""",
    )
    master = write(
        tmp_path,
        "open.md",
        """# Maze Master: open

```js
return {
    generateMaze(n) {
        return Array.from({length: n}, () => Array.from({length: n},
            () => ({east: false, south: false, draw: Math.random()})));
    },
    takeTurn(mana, maze) { return null; },
};
```
""",
    )
    replay = tmp_path / "game.json.gz"
    result = botarena.play(
        "labyrinth",
        [f"post:{adventurers}", f"post:{master}"],
        seed="dé",
        replay=replay,
        max_rounds=1,
    )
    assert (result.end_reason, result.turns, result.scores) == ("round_cap", 5, [995, 995])
    steps = load_replay(replay)["steps"]
    adventurer_draws, master_draws = [], []
    for step in steps:
        for act in step["acts"]:
            value = json.loads(act["reply"])
            if act["seat"] == 0 and value is not None:  # takeTurn, not startRound
                adventurer_draws += value[2:]
            elif value is not None:  # the maze
                master_draws += [cell["draw"] for row in value for cell in row]
    a, m = seeded_random("dé:A"), seeded_random("dé:M")
    assert adventurer_draws == [a() for _ in range(10)]
    assert master_draws == [m() for _ in range(9)]


# -- syntax errors and check-post -------------------------------------------------------
SYNTAX_POST = """# Maze Master: broken

Some blurb.

```js
function gen(n) {
    return [];
}
let x = ;
return {generateMaze: gen, takeTurn() {}};
```
"""


def check(path: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["labyrinth", "check-post", path])
    return result.exit_code, result.stdout, result.stderr


def test_check_post_accepts_the_four_posts() -> None:
    for name, role in (
        ("wallfollower", "adventurers"),
        ("cartographer", "adventurers"),
        ("static", "maze master"),
        ("warden", "maze master"),
    ):
        code, out, _ = check(str(POSTS / f"{name}.md"))
        assert (code, out.strip()) == (0, f"{POSTS / name}.md: ok, {role} {name}")


def test_check_post_syntax_error_has_the_posts_line_number(tmp_path: Path) -> None:
    path = write(tmp_path, "broken.md", SYNTAX_POST)
    code, out, _ = check(path)
    assert code == 1
    assert out.splitlines()[:2] == [
        f"{path} at line 9: SyntaxError: Unexpected token ';'",
        "let x = ;",
    ]


def test_check_post_indented_block_line_numbers(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "ind.md",
        "# Adventurers: ind\n\nblurb\n\n    let a = 1;\n"
        "    return {startRound() {}, takeTurn() { a b }};\n",
    )
    code, out, _ = check(path)
    assert (code, out.splitlines()[0]) == (
        1,
        f"{path} at line 6: SyntaxError: Unexpected identifier 'b'",
    )


def test_check_post_bom_and_crlf_keep_line_numbers(tmp_path: Path) -> None:
    path = tmp_path / "dos.md"
    path.write_bytes(b"\xef\xbb\xbf" + SYNTAX_POST.replace("\n", "\r\n").encode())
    code, out, _ = check(str(path))
    assert (code, out.splitlines()[0]) == (
        1,
        f"{path} at line 9: SyntaxError: Unexpected token ';'",
    )


@pytest.mark.parametrize(
    ("code_text", "message"),
    [
        ("null.boom;\nreturn {};", "TypeError while building bad: Cannot read properties of null"),
        ("return 7;", "the code of bad returned 7, not the bot object"),
        ("return {startRound() {}};", "the adventurers bot bad has no method takeTurn"),
        ("const window = 1;\nreturn {};", "SyntaxError: Identifier 'window' has already been"),
    ],
)
def test_check_post_code_wrong_exits_1(tmp_path: Path, code_text: str, message: str) -> None:
    path = write(tmp_path, "bad.md", f"# Adventurers: bad\n\n```js\n{code_text}\n```\n")
    code, out, _ = check(path)
    assert code == 1 and message in out


def test_check_post_runtime_error_in_body_names_its_line(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "bad.md",
        "# Adventurers: bad\n\n```js\nconst a = 1;\nnull.boom;\nreturn {};\n```\n",
    )
    code, out, _ = check(path)
    assert code == 1 and f"{path}:5:" in out


@pytest.mark.parametrize(
    "text", ["hello\n\n```js\nreturn {};\n```\n", "# Adventurers: x\n\nprose only\n"]
)
def test_check_post_not_a_post_is_a_user_error(tmp_path: Path, text: str) -> None:
    path = write(tmp_path, "nothing.md", text)
    code, out, err = check(path)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith(f"botarena: error: {path}")


def test_check_post_missing_file_is_a_user_error(tmp_path: Path) -> None:
    code, _, err = check(str(tmp_path / "absent.md"))
    assert code == 2 and "cannot read the post" in err and "Traceback" not in err


# -- post: bot specs in play ------------------------------------------------------------
def play_cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["play", "labyrinth", *args])
    return result.exit_code, result.stdout, result.stderr


def test_play_post_without_header_is_a_user_error(tmp_path: Path) -> None:
    path = write(tmp_path, "nohead.md", "my bot\n\n```js\nreturn {};\n```\n")
    code, out, err = play_cli(f"post:{path}", "builtin:static")
    assert (code, out) == (2, "")
    assert err.strip() == (
        f"botarena: error: {path}: line 1: no header; the post must start"
        " with '# Adventurers: NAME' or '# Maze Master: NAME'"
    )


def test_play_post_in_the_wrong_role_is_a_user_error() -> None:
    code, _, err = play_cli(f"post:{POSTS / 'static.md'}", "builtin:static")
    assert code == 2
    assert err.strip() == (
        f"botarena: error: {POSTS / 'static.md'} is a maze master post;"
        " seat 0 is the adventurers (play labyrinth ADVENTURERS MAZEMASTER)"
    )


def test_play_syntax_error_is_a_strike_naming_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "broken.md", SYNTAX_POST)
    code, out, _ = play_cli("builtin:wallfollower", f"post:{path}", "--seed", "s", "--json")
    assert code == 0
    result = json.loads(out)
    assert [p["status"] for p in result["players"]] == ["ok", "strike"]
    assert result["end_reason"].startswith(
        f"strike (maze master): generateMaze invalid reply: the bot reports an error: {path}"
        " at line 9: SyntaxError: Unexpected token ';'"
    )


def test_play_exception_in_a_method_is_a_strike_naming_it(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "noisy.md",
        "# Adventurers: noisy\n\n```js\nreturn {startRound() {},"
        "\ntakeTurn() { console.warn('hi'); return [1, 1]; }};\n```\n",
    )
    result = botarena.play("labyrinth", [f"post:{path}", "builtin:static"], seed="s")
    assert result.end_reason.startswith(
        "strike (adventurers): adventurers.takeTurn invalid reply: the bot reports an error:"
        " TypeError in noisy.takeTurn: console.warn is not a function"
    )
    assert f"{path}:5:" in result.end_reason


def test_two_argument_maze_master_post_runs() -> None:
    """The original interface passes takeTurn(mana, maze); the static post declares two."""
    result = botarena.play(
        "labyrinth",
        [f"post:{POSTS / 'wallfollower.md'}", f"post:{POSTS / 'static.md'}"],
        seed="two",
        max_rounds=3,
    )
    assert result.end_reason == "round_cap"
    assert [p.status for p in result.players] == ["ok", "ok"]


def game_record(path: Path) -> list[Any]:
    steps = load_replay(path)["steps"]
    return [
        ([(act["seat"], act["reply"]) for act in step["acts"]], step["frame"]) for step in steps
    ]


@pytest.mark.slow  # seconds on 2 cores
def test_game_between_posts_is_reproduced_from_a_string_seed(tmp_path: Path) -> None:
    specs = [f"post:{POSTS / 'cartographer.md'}", f"post:{POSTS / 'warden.md'}"]
    first = botarena.play(
        "labyrinth", specs, seed="Λαβύρινθος 7", replay=tmp_path / "1.json.gz", max_rounds=4
    )
    second = botarena.play(
        "labyrinth", specs, seed="Λαβύρινθος 7", replay=tmp_path / "2.json.gz", max_rounds=4
    )
    assert first.to_dict() | {"replay": None, "players": None} == second.to_dict() | {
        "replay": None,
        "players": None,
    }
    record = game_record(tmp_path / "1.json.gz")
    assert record == game_record(tmp_path / "2.json.gz")
    changed = [
        change
        for _, frame in record
        for change in frame.get("changes", [])
        if change["result"] == "changed"
    ]
    assert changed  # the warden did move walls: the game is not a static one
    verdict = verify(load_replay(tmp_path / "1.json.gz"))
    assert verdict.ok, verdict.message
    botarena.play(
        "labyrinth", specs, seed="Λαβύρινθος 8", replay=tmp_path / "3.json.gz", max_rounds=4
    )
    assert first.end_reason == "round_cap"
    assert game_record(tmp_path / "3.json.gz") != record


def test_post_and_builtin_static_draw_the_same_mazes(tmp_path: Path) -> None:
    """Both are the same recursive backtracker on the same seeded stream (seed + ':M')."""
    botarena.play(
        "labyrinth",
        ["builtin:wallfollower", "builtin:static"],
        seed="same",
        replay=tmp_path / "py.json.gz",
        max_rounds=4,
    )
    botarena.play(
        "labyrinth",
        ["builtin:wallfollower", f"post:{POSTS / 'static.md'}"],
        seed="same",
        replay=tmp_path / "js.json.gz",
        max_rounds=4,
    )
    frames = [
        [step["frame"] for step in load_replay(tmp_path / f"{kind}.json.gz")["steps"]]
        for kind in ("py", "js")
    ]
    assert frames[0] == frames[1]
    assert len(frames[0]) > 20


# -- what a post receives: exactly the protocol's arguments, whatever the wire carries ----
ECHO_MASTER = """# Maze Master: echo

```js
let last = null;
const echo = (args, extra) => [JSON.stringify(Array.from(args)), args.length, ...extra];
return {
    generateMaze() { return echo(arguments, []); },
    takeTurn(mana, maze, adventurers) {
        const reply = echo(arguments, [maze !== last, maze instanceof Array,
                                       Object.getPrototypeOf(maze[0][0]) === Object.prototype]);
        maze[0][0].east = "scribbled";  // a bot may change its copy: the next is fresh
        maze[maze.length - 1].pop();
        maze.push([]);
        last = maze;
        return reply;
    },
};
```
"""

ECHO_ADVENTURERS = """# Adventurers: echo

```js
const echo = (args, extra) => [JSON.stringify(Array.from(args)), args.length, ...extra];
return {
    startRound() { return echo(arguments, []); },
    takeTurn(vision) {
        const reply = echo(arguments, [vision instanceof Array]);
        vision[0].ahead.pop();
        return reply;
    },
};
```
"""


def ordered(text: str) -> Any:
    """A JSON text with every object as its list of (key, value) pairs: key order counts."""
    return json.loads(text, object_pairs_hook=list)


def test_posts_see_exactly_the_calls_arguments_through_a_game_with_moving_walls(
    tmp_path: Path,
) -> None:
    """Cartographer and warden (in-process) play; every call of the game is also sent to
    two echo posts, which answer with JSON.stringify of the arguments they received. The
    runner gets only the maze's changed cells, yet each echo is the call's arguments as the
    protocol states them in full, in the controller's key order, with a fresh maze copy of
    the bot's realm each turn, though the echo scribbles on the copies it gets."""
    from botarena.games.labyrinth.bots.cartographer import Cartographer
    from botarena.games.labyrinth.bots.warden import Warden
    from botarena.games.labyrinth.post import post_player
    from botarena.games.labyrinth.protocol import PROTOCOL
    from botarena.games.labyrinth.rules import LabyrinthState

    echoes = [
        post_player(write(tmp_path, f"{name}.md", text), f"post:{name}")
        for name, text in (("adventurers", ECHO_ADVENTURERS), ("master", ECHO_MASTER))
    ]
    bots = [Cartographer(), Warden()]
    state = LabyrinthState("echo", max_rounds=4)
    try:
        for seat, echo in enumerate(echoes):
            echo.start(seat)
            echo.greet(PROTOCOL.greeting(state, seat))
            assert echo.await_handshake(PROTOCOL.handshake_done, 0, None).fault is None
            bots[seat].setup(seat, f"echo:{seat}")
        calls = changed = 0
        while not state.is_over():
            seat = state.to_act()[0]
            call = state.observation(seat)
            echoes[seat].send("", call)
            reply = echoes[seat].collect(PROTOCOL, call, None)
            assert reply.fault is None, reply.detail
            if call.name == "startRound":  # its value means nothing: the runner sends null
                assert reply.action.value is None
            else:
                text, count, *checks = reply.action.value
                assert ordered(text) == ordered(json.dumps(list(call.args)))
                assert count == len(call.args) and all(checks)
            calls += 1
            state.apply({seat: bots[seat].act(call)})
            changed += any(
                change["result"] == "changed" for change in state.last.get("changes", ())
            )
        assert state.end_reason == "round_cap" and changed >= 10 and calls > 200
    finally:
        for echo in echoes:
            echo.close()


def test_post_wire_sends_a_new_maze_whole_then_only_changed_cells() -> None:
    from botarena.games.labyrinth.maze import Maze
    from botarena.games.labyrinth.postwire import PostWire
    from botarena.games.labyrinth.rules import Call, MazeMasterTurn

    wire, maze = PostWire(), Maze.open(3)
    places = [{"row": 0, "col": 1, "dir": "east"}, {"row": 1, "col": 0, "dir": "south"}]

    def sent(mana: int) -> dict[str, Any]:
        return json.loads(wire.encode(MazeMasterTurn(mana, maze.shared_view(), places)))

    first = sent(1)
    assert (first["call"], first["mana"], first["n"], first["adventurers"]) == (
        "takeTurn",
        1,
        3,
        places,
    )
    assert first["cells"][0] == [0, 0, False, 1, False, 1]
    assert first["cells"][8] == [2, 2, None, 1, None, 1]  # the border: null, cost 1
    assert [cell[:2] for cell in first["cells"]] == [[r, c] for r in range(3) for c in range(3)]
    assert sent(2)["cells"] == []
    maze.set(maze.edge(1, 1, "south"), True)
    maze.set(maze.edge(1, 1, "south"), False)  # changed twice: fib(2) = 2 to change again
    maze.set(maze.edge(0, 1, "east"), True)
    assert sent(3)["cells"] == [[0, 1, True, 1, False, 1], [1, 1, False, 1, False, 2]]
    assert sent(4)["cells"] == []
    maze = Maze.open(4)  # the next round
    assert len(sent(1)["cells"]) == 16
    assert wire.encode(Call("startRound", (4,))) == '{"call":"startRound","args":[4]}\n'


def test_a_post_over_its_cpu_bank_is_a_strike(tmp_path: Path) -> None:
    """Posts are not frozen between calls, but a call is still charged the CPU Node used
    for it: 400 ms of spinning in the first takeTurn against a bank of 50 + 1 ms."""
    path = write(
        tmp_path,
        "spin.md",
        "# Adventurers: spin\n\n```js\nreturn {startRound() {},"
        " takeTurn() {\n    const end = performance.now() + 400;\n"
        "    while (performance.now() < end) {}\n    return [0, 0];\n}};\n```\n",
    )
    result = botarena.play("labyrinth", [f"post:{path}", "builtin:static"], seed="s")
    assert result.players[0].status == "strike"
    assert result.end_reason.startswith(
        "strike (adventurers): adventurers.takeTurn over its time limit: used "
    )
    assert result.end_reason.endswith(" ms of CPU, limit 51.0 ms; outlier")


def test_posts_are_never_frozen_between_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    """Between calls a post's runner waits in a read and runs none of its code: it is never
    stopped and resumed (two signals per call cost more than most calls)."""
    from botarena.core.sandbox import Confinement

    frozen: list[str] = []
    monkeypatch.setattr(Confinement, "pause", lambda box: frozen.append(box.argv[-1]))
    monkeypatch.setattr(Confinement, "resume", lambda box: None)
    post = POSTS / "wallfollower.md"
    static = POSTS / "static.md"
    botarena.play("labyrinth", [f"post:{post}", f"post:{static}"], seed="x1", max_rounds=4)
    assert frozen == []
