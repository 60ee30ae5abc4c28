"""The Labyrinth code scraper: answers from Stack Exchange API pages and saved question pages
become post files, a bots file and a report (the rules' submission format: the header,
the first code block, unique names, near-identical bots), and the shipped posts survive the
round trip through both shapes move for move."""

from __future__ import annotations

import gzip
import html
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import botarena
from botarena import load_replay
from botarena.cli import app
from botarena.games.labyrinth.answers import (
    ScrapeError,
    answers_from_text,
    fetch_api_pages,
    read_source,
)
from botarena.games.labyrinth.post import load_post, parse_post
from botarena.games.labyrinth.scrape import SIMILAR, bot_name, near_identical, scrape, tokens
from conftest import debian_program

POSTS = Path(botarena.__file__).parent / "games" / "labyrinth" / "posts"

LEFTY_CODE = """\
// both hands: A <- left, B -> right && no <code> here
const seen = "<br>";  // a string, not a break
return {
    startRound(n) { this.n = n; },
    takeTurn([a, b]) {
        const pick = v => v.ahead[0].left ? (v.ahead[0].ahead ? 2 : 1) : 4;
        return [pick(a), a.friend && b.friend ? 0 : pick(b)];
    },
};"""
"""Answer 101's code as its author wrote it (the API sends it HTML-escaped)."""

HUGGER_CODE = """\
const arrow = "->"; // <b>not bold</b> & &amp;
return {
    startRound(n) {},
    takeTurn([a, b]) { return [a.ahead.length > 1 ? 1 : 2, 4]; },
};"""
"""Answer 201's code: highlight.js spans around it on the saved page, entities in it."""

BREAKS_CODE = """\
return {
    generateMaze(n) { return Array.from({length: n}, () => Array.from({length: n}, \
() => ({east: false, south: false}))); },
    takeTurn() { return null; },
};  // nested <code>"""
"""Answer 202's code: lines broken with <br> inside <pre>, a nested <code> element."""


@pytest.fixture(scope="module", autouse=True)
def node() -> str:
    return debian_program("node", "nodejs")


@pytest.fixture(scope="module")
def api_scrape(tmp_path_factory: pytest.TempPathFactory, data: Path) -> tuple[Path, Any]:
    out = tmp_path_factory.mktemp("api") / "posts"
    answers = [
        answer
        for page in ("answers-page1.json", "answers-page2.json")
        for answer in read_source(data / "labyrinth_scrape" / page)
    ]
    return out, scrape(answers, out)


def verdicts(report: Any) -> list[tuple[int, bool, str]]:
    return [(v.answer_id, v.kept, v.bot if v.kept else v.reason) for v in report.verdicts]


# -- API pages -------------------------------------------------------------------------
def test_api_pages_each_answer_kept_or_rejected_with_its_reason(api_scrape: Any) -> None:
    _, report = api_scrape
    assert verdicts(report) == [
        (101, True, "Lefty"),
        (102, True, "Keeper"),
        (
            103,
            False,
            "no header: an answer starts with the heading '# Adventurers: NAME' or"
            " '# Maze Master: NAME'",
        ),
        (104, False, "unknown submission type 'Wizard'; it must be 'Adventurers' or 'Maze Master'"),
        (105, False, "no code block"),  # answer 105 is on both pages: judged once
        (106, False, "duplicate name 'lefty' (answer 101 has it)"),
        (
            107,
            False,
            "does not compile: code line 4: SyntaxError: Unexpected token ';' (let x = ;)",
        ),
        (108, True, "Lefty-Two"),
        (109, False, "bad header 'Adventurers': it must be '<submission type>: <name>'"),
        (110, False, "does not build: the maze master bot Half has no method takeTurn"),
    ]
    assert [(v.role, v.name, v.author) for v in report.verdicts[:2]] == [
        ("adventurers", "Lefty", "Jürgen & Co"),
        ("maze master", "Keeper", "keeper"),
    ]


def test_api_code_comes_back_as_the_authors_exact_text(api_scrape: Any) -> None:
    out, _ = api_scrape
    post = load_post(str(out / "Lefty.md"))
    assert (post.role, post.name, post.code) == ("adventurers", "Lefty", LEFTY_CODE)


def test_bots_file_lists_the_kept_posts_with_their_roles(api_scrape: Any) -> None:
    out, report = api_scrape
    assert report.bots_file == str(out / "bots.toml")
    assert tomllib.loads((out / "bots.toml").read_text())["bot"] == [
        {"name": "Lefty", "command": "post:Lefty.md", "role": "adventurers"},
        {"name": "Keeper", "command": "post:Keeper.md", "role": "maze master"},
        {"name": "Lefty-Two", "command": "post:Lefty-Two.md", "role": "adventurers"},
    ]
    assert sorted(path.name for path in out.iterdir()) == [
        "Keeper.md",
        "Lefty-Two.md",
        "Lefty.md",
        "bots.toml",
        "report.json",
    ]
    saved = json.loads((out / "report.json").read_text())
    assert (saved["kept"], saved["rejected"]) == (3, 7)


def test_near_identical_bots_are_reported(api_scrape: Any) -> None:
    """Lefty Two is Lefty with other comments and indentation: the same tokens."""
    _, report = api_scrape
    assert report.similar == [
        {"bots": ["Lefty", "Lefty-Two"], "role": "adventurers", "similarity": 1.0}
    ]


def test_similarity_is_difflib_on_tokens_without_comments_or_layout() -> None:
    assert tokens("a  =b; // c\n/* d\n e */ x('s t', `u`)") == [
        "a",
        "=",
        "b",
        ";",
        "x",
        "(",
        "'s t'",
        ",",
        "`u`",
        ")",
    ]
    base = "return {takeTurn(v) { return [1, 2]; }, startRound() {}};"
    small = base.replace("[1, 2]", "[1, 3]")  # 1 token of 23 differs: ratio 22/23
    other = "const q = []; for (const x of q) q.push(x * 2); return {takeTurn() {}};"
    found = near_identical(
        [
            ("a", "adventurers", tokens(base)),
            ("b", "adventurers", tokens(small)),
            ("c", "adventurers", tokens(other)),
            ("d", "maze master", tokens(base)),
        ]
    )  # other role: not compared
    assert found == [{"bots": ["a", "b"], "role": "adventurers", "similarity": round(22 / 23, 3)}]
    assert SIMILAR <= 22 / 23


@pytest.mark.parametrize(
    ("name", "bot"),
    [
        ("The Minotaur", "The-Minotaur"),
        ("Lines & Breaks", "Lines-Breaks"),
        ("C++ bot", "C++-bot"),
        (".hidden", "hidden"),
        ("-->", "bot"),
        ("Ωmega 2.0", "mega-2.0"),
        ("a_b", "a_b"),
    ],
)
def test_bot_names_are_one_word_of_the_bots_file_alphabet(name: str, bot: str) -> None:
    assert bot_name(name) == bot


# -- a saved question page -------------------------------------------------------------
def test_saved_page_answers_markup_and_entities_restored(tmp_path: Path, data: Path) -> None:
    report = scrape(read_source(data / "labyrinth_scrape" / "question-page.html"), tmp_path)
    assert verdicts(report) == [  # the earliest answer first
        (202, True, "Lines-Breaks"),
        (201, True, "Hugger"),
        (
            203,
            False,
            "no header: an answer starts with the heading '# Adventurers: NAME' or"
            " '# Maze Master: NAME'",
        ),
    ]
    assert [v.author for v in report.verdicts] == ["lb", "Hug & Co", ""]
    hugger, breaks = (
        load_post(str(tmp_path / "Hugger.md")),
        load_post(str(tmp_path / "Lines-Breaks.md")),
    )
    assert (hugger.role, hugger.name, hugger.code) == ("adventurers", "Hugger", HUGGER_CODE)
    assert (breaks.role, breaks.name, breaks.code) == ("maze master", "Lines & Breaks", BREAKS_CODE)


def test_a_page_without_answers_is_an_error() -> None:
    with pytest.raises(ScrapeError) as error:
        answers_from_text("<html><body><p>nothing</p></body></html>", "page.html")
    assert str(error.value) == (
        "page.html: no answers found (a saved question page has"
        " elements of class 'answer' with data-answerid)"
    )


def test_api_error_response_is_an_error() -> None:
    text = json.dumps(
        {
            "error_id": 502,
            "error_name": "throttle_violation",
            "error_message": "too many requests from this IP",
        }
    )
    with pytest.raises(ScrapeError) as error:
        answers_from_text(text, "x.json")
    assert str(error.value) == (
        "x.json: the API answered error 502 throttle_violation: too many requests from this IP"
    )


def test_api_answers_without_bodies_need_the_withbody_filter() -> None:
    text = json.dumps({"items": [{"answer_id": 5, "score": 1}], "has_more": False})
    with pytest.raises(ScrapeError) as error:
        answers_from_text(text, "x.json")
    assert str(error.value) == "x.json: answer 5 has no body; fetch with filter=withbody"


def test_api_url_pages_are_followed_until_has_more_is_false() -> None:
    asked = []

    def get(url: str) -> bytes:
        asked.append(url)
        page = int(url.rsplit("page=", 1)[1])
        body = json.dumps({"items": [], "has_more": page < 3}).encode()
        return gzip.compress(body)  # the API always compresses

    url = "https://api.stackexchange.com/2.3/questions/1/answers?site=codegolf&filter=withbody"
    texts = list(fetch_api_pages(url, get))
    assert asked == [f"{url}&page={page}" for page in (1, 2, 3)]
    assert [json.loads(text)["has_more"] for text in texts] == [True, True, False]


# -- the command line ------------------------------------------------------------------
def scrape_cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["labyrinth", "scrape", *args])
    return result.exit_code, result.stdout, result.stderr


def test_cli_scrape_json_report(tmp_path: Path, data: Path) -> None:
    folder = data / "labyrinth_scrape"
    code, out, _ = scrape_cli(
        str(folder / "answers-page1.json"),
        "--out",
        str(tmp_path),
        "--bots",
        str(tmp_path / "tour.toml"),
        "--json",
    )
    assert code == 1  # some answers were rejected: the rest are written all the same
    report = json.loads(out)
    assert (report["kept"], report["rejected"], report["bots_file"]) == (
        2,
        3,
        str(tmp_path / "tour.toml"),
    )
    assert [bot["name"] for bot in tomllib.loads((tmp_path / "tour.toml").read_text())["bot"]] == [
        "Lefty",
        "Keeper",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "give answer files (SOURCE...) or --url"),
        (("absent.json",), "absent.json: cannot read"),
    ],
)
def test_cli_scrape_user_errors(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    code, out, err = scrape_cli(
        *[str(tmp_path / arg) if arg.endswith(".json") else arg for arg in args],
        "--out",
        str(tmp_path / "out"),
    )
    assert (code, out) == (2, "")
    assert len(err.strip().splitlines()) == 1 and err.startswith("botarena: error: ")
    assert message in err and "Traceback" not in err


# -- the round trip: the shipped posts through both shapes -----------------------------
def as_html_body(text: str) -> str:
    """A post in the markup Stack Exchange renders Markdown to: the header a heading, the
    blurb a paragraph, the code escaped in <pre><code> with a final line break."""
    post = parse_post(text)
    lines = text.split("\n")
    blurb = " ".join(line.strip() for line in lines[1 : post.first_line - 2] if line.strip())
    return (
        f"<h1>{html.escape(lines[0].lstrip('#').strip())}</h1>\n\n<p>{html.escape(blurb)}"
        f"</p>\n\n<pre><code>{html.escape(post.code, quote=False)}\n</code></pre>\n"
    )


NAMES = ("wallfollower", "cartographer", "static", "warden")


def api_json() -> str:
    return json.dumps(
        {
            "items": [
                {
                    "answer_id": 300 + index,
                    "owner": {"display_name": "botarena"},
                    "creation_date": 1621700000 + index,
                    "body": as_html_body((POSTS / f"{name}.md").read_text()),
                }
                for index, name in enumerate(NAMES)
            ],
            "has_more": False,
        }
    )


def question_page() -> str:
    answers = "\n".join(
        f'<div id="answer-{400 + index}" class="answer js-answer" data-answerid="{400 + index}">'
        f'<div class="s-prose js-post-body" itemprop="text">\n'
        f"{as_html_body((POSTS / f'{name}.md').read_text())}</div></div>"
        for index, name in enumerate(NAMES)
    )
    return f'<html><body><div id="answers">{answers}</div></body></html>'


def game(adventurers: Path, master: Path, replay: Path) -> list[Any]:
    result = botarena.play(
        "labyrinth",
        [f"post:{adventurers}", f"post:{master}"],
        seed="round trip",
        replay=replay,
        max_rounds=3,
    )
    steps = load_replay(replay)["steps"]
    return [
        result.turns,
        result.scores,
        result.end_reason,
        [
            ([(act["seat"], act.get("reply")) for act in step["acts"]], step["frame"])
            for step in steps
        ],
    ]


@pytest.mark.slow  # seconds on 2 cores
@pytest.mark.parametrize("shape", ["api", "page"])
def test_the_four_posts_scrape_back_to_posts_that_play_the_same_games(
    tmp_path: Path, shape: str
) -> None:
    text = api_json() if shape == "api" else question_page()
    report = scrape(answers_from_text(text, shape), tmp_path / "out")
    assert [(v.kept, v.bot) for v in report.verdicts] == [(True, name) for name in NAMES]
    assert report.similar == []
    for name in NAMES:
        original, scraped = (
            load_post(str(folder / f"{name}.md")) for folder in (POSTS, tmp_path / "out")
        )
        assert (scraped.role, scraped.name, scraped.code) == (
            original.role,
            original.name,
            original.code,
        )
    for adventurers, master in (("wallfollower", "static"), ("cartographer", "warden")):
        assert game(
            tmp_path / "out" / f"{adventurers}.md",
            tmp_path / "out" / f"{master}.md",
            tmp_path / "scraped.json.gz",
        ) == game(
            POSTS / f"{adventurers}.md", POSTS / f"{master}.md", tmp_path / "original.json.gz"
        )
