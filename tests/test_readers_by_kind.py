"""Readers validate by kind (#34): the nesting and numbers of every TOML file, NUL bytes and
over-long names before any path is built, integer texts past Python's digit limit, times out
of range; each ends in one line, exit 2, and in a batch each item is refused alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from botarena.cli import app
from botarena.core import bounds
from botarena.core.reader import ReadError, parse_json, parse_toml
from botarena.core.rules import GameError
from botarena.games.labyrinth.answers import answers_from_text
from botarena.games.labyrinth.scrape import scrape


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def new_with(bots_file: Path) -> tuple[int, str]:
    db = f"sqlite:///{bots_file.parent / 't.db'}"
    return run("tournament", "new", "t", "--game", "amazes", "--bots", str(bots_file), "--db", db)


# -- TOML ------------------------------------------------------------------------------
def test_a_bots_file_nested_5000_deep_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bots.toml"
    path.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    assert new_with(path) == (
        2,
        f"botarena: error: {path}: the bots file nests arrays or tables more than 64 deep\n",
    )
    assert not (tmp_path / "t.db").exists()


def test_nesting_is_counted_exactly() -> None:
    assert parse_toml("x = " + "[" * 63 + "]" * 63, "f") == {"x": _nest(63)}
    with pytest.raises(ReadError, match="more than 64 deep"):
        parse_toml("x = " + "[" * 64 + "]" * 64, "f")  # the document is one level more


def _nest(levels: int) -> list:
    value: list = []
    for _ in range(levels - 1):
        value = [value]
    return value


def test_a_number_past_python_s_digit_limit_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bots.toml"
    path.write_text("x = " + "7" * 5000 + "\n")
    assert new_with(path) == (
        2,
        f"botarena: error: {path}: the bots file holds a value Python cannot read (Exceeds"
        " the limit (4300 digits) for integer string conversion)\n",
    )


@settings(max_examples=60, deadline=None)
@given(
    st.recursive(
        st.integers() | st.text() | st.booleans() | st.floats(allow_nan=False),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
        max_leaves=30,
    ),
    st.integers(min_value=0, max_value=300),
)
def test_any_document_parses_or_is_one_reader_error(value: object, extra: int) -> None:
    """TOML and JSON alike: arbitrary values, Unicode keys and huge integers, wrapped in any
    depth of arrays, either read back or refused as ReadError, never anything else."""
    for _ in range(extra):
        value = [value]
    text = json.dumps({"x": value})
    for parse, document in ((parse_json, text), (parse_toml, _as_toml(value))):
        try:
            parse(document, "doc")
        except ReadError as exc:
            assert str(exc).startswith("doc")


def _as_toml(value: object) -> str:
    """`x = VALUE` in TOML's inline syntax (JSON's scalars and arrays are TOML's too)."""
    if isinstance(value, dict):
        return (
            "x = {" + ", ".join(f"{json.dumps(k)} = {_inline(v)}" for k, v in value.items()) + "}"
        )
    return f"x = {_inline(value)}"


def _inline(value: object) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_inline(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_inline(item) for item in value) + "]"
    return json.dumps(value)


# -- names -----------------------------------------------------------------------------
LONG = "x" * 300
DEEP = "x/" * 2100


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("labyrinth", "check-post", "a\0b.md"), "argument 'a\\x00b.md' holds a NUL byte"),
        (
            ("play", "labyrinth", "post:x\0.md", "builtin:labyrinth/cartographer"),
            "argument 'post:x\\x00.md' holds a NUL byte",
        ),
        (
            ("play", "amazes", "builtin:amazes/random", LONG),
            f"bot spec {bounds.shown(LONG)}: the program's name has a name longer than 255 bytes",
        ),
        (
            ("play", "amazes", "builtin:amazes/random", "b=builtin:amazes/random", "--map", LONG),
            f"--map {bounds.shown(LONG)}: has a name longer than 255 bytes",
        ),
        (
            (
                "play",
                "amazes",
                "builtin:amazes/random",
                "b=builtin:amazes/random",
                "--replay",
                LONG + ".json",
            ),
            f"--replay {bounds.shown(LONG + '.json')}: has a name longer than 255 bytes",
        ),
        (
            ("labyrinth", "check-post", DEEP),
            f"post {bounds.shown(DEEP)}: is longer than 4096 bytes",
        ),
        (
            (
                "play",
                "amazes",
                "builtin:amazes/random",
                "b=builtin:amazes/random",
                "--map",
                "\ud800",
            ),
            "argument '\\ud800' is not valid text (a lone surrogate)",
        ),
    ],
    ids=[
        "check-post NUL",
        "play post NUL",
        "long program",
        "map",
        "replay",
        "long post path",
        "lone surrogate",
    ],
)
def test_a_name_no_file_can_have_is_refused_before_any_path(
    args: tuple[str, ...], message: str
) -> None:
    code, output = run(*args)
    assert (code, output) == (2, f"botarena: error: {message}\n")


def test_each_reader_refuses_a_nul_before_any_path() -> None:
    """Strangers' files hold NUL bytes where argv cannot: every reader's one entry refuses."""
    from botarena.core.outputs import output_path
    from botarena.core.reader import MAP, read_bytes
    from botarena.core.registry import get_game
    from botarena.core.spec import BotSpecError, make_player
    from botarena.games.labyrinth.post import load_post

    with pytest.raises(ReadError, match=r"^map file 'm\\x00': holds a NUL byte$"):
        read_bytes("m\0", MAP)
    with pytest.raises(BotSpecError, match=r"^post 'p\\x00\.md': holds a NUL byte$"):
        load_post("p\0.md")
    with pytest.raises(GameError, match=r"^--replay 'r\\x00': holds a NUL byte$"):
        output_path("r\0", "--replay")
    with pytest.raises(GameError, match=r"^--map 'm\\x00': holds a NUL byte$"):
        get_game("amazes").read_map("m\0")
    with pytest.raises(BotSpecError, match=r"^bot spec '\./b\\x00': holds a NUL byte$"):
        make_player(get_game("amazes"), "./b\0")


def test_a_bots_file_path_with_a_nul_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bots.toml"
    path.write_text('[[bot]]\nname = "a"\nsource = "bot\\u0000.py"\n')
    assert new_with(path) == (
        2,
        f"botarena: error: {path}:3: path 'bot\\x00.py': holds a NUL byte\n",
    )


def test_a_bot_name_past_its_length_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bots.toml"
    path.write_text(f'[[bot]]\nname = "{"n" * 101}"\ncommand = "builtin:amazes/random"\n')
    code, output = new_with(path)
    assert code == 2
    assert output.startswith(f"botarena: error: {path}:2: bot name 'nnnn")
    assert output.endswith("' is longer than 100 characters\n")


@given(st.text())
def test_path_problem_never_raises(text: str) -> None:
    problem = bounds.path_problem(text)
    assert problem == "" or ("\0" in text) == (problem == "holds a NUL byte")


# -- integers and times ----------------------------------------------------------------
@given(st.text(max_size=60) | st.integers().map(str) | st.integers().map(lambda n: str(n) * 300))
def test_whole_number_parses_or_refuses_in_one_line(text: str) -> None:
    try:
        value = bounds.whole_number(text, "--n", 0, 10**6)
    except GameError as exc:
        assert str(exc).startswith("--n ")
    else:
        assert (0 <= value <= 10**6 and str(value) == text.strip().lstrip("+").lstrip("0")) or "0"


@pytest.mark.parametrize("value", [1e300, -1e300, float("nan"), float("inf"), 253402318800.0])
def test_times_out_of_range_are_refused(value: float) -> None:
    with pytest.raises(GameError, match=r"^the deadline "):
        bounds.moment(value, "the deadline")


PAGE = (
    '<div class="answer" data-answerid="{id}"><div class="js-post-body">'
    "<h1>Adventurers: {name}</h1><pre><code>return 1;</code></pre></div></div>"
)


@pytest.mark.parametrize("source", ["page", "api"])
def test_an_answer_id_of_5000_digits_is_that_answer_s_reason(source: str, tmp_path: Path) -> None:
    huge = "9" * 5000
    if source == "page":
        text = PAGE.format(id=huge, name="Huge") + PAGE.format(id="²", name="Sup")
    else:
        body = '"body": "<h1>Adventurers: Huge</h1>"'
        text = f'{{"items": [{{"answer_id": {huge}, {body}}}]}}'
    answers = answers_from_text(text, "src")
    report = scrape(answers, tmp_path / "out")
    assert [(v.kept, v.reason) for v in report.verdicts] == [
        (False, "answer id out of range (1 to 2**63 - 1): 5000 digits")
    ]
