"""The challenge's code scraper (the original controller's to-do): answers (read by
`answers.py` from API pages or a saved question page) become post files that `post:PATH`
runs, a bots file for a tournament, and a report of what was kept and why the rest was not.

The rules it applies (docs/games/labyrinth.md, "Scraping the answers"): an answer starts
with `# <submission type>: <name>`, the type `Adventurers` or `Maze Master`; only its first
code block is the bot; names are unique (the earliest answer keeps a name); the code must
compile and build a bot with its role's methods; pairs of bots of a role whose code is
nearly identical are reported.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from botarena.core.bounds import checked_path
from botarena.games.labyrinth.answers import OUT_OF_RANGE, Answer, unique_answers
from botarena.games.labyrinth.htmlposts import first_code_block, first_heading
from botarena.games.labyrinth.post import PostError, check_post, parse_header, parse_post

SIMILAR = 0.9
"""Two bots of a role are near-identical when difflib's ratio of their normalised token
sequences (comments and layout dropped) is at least this."""

CHECK_TIMEOUT_S = 10.0
"""How long compiling a post and building its bot once may take when it is scraped."""

BOT_NAME = re.compile(r"[^A-Za-z0-9_.+-]+")
"""What a bots file's name may not hold (tournament bot names are one word)."""

MAX_BOT_NAME = 80
"""The longest bot name made from a post's name (characters; a bots file takes 100, and a
clash adds `-ANSWERID`): it names the post's file, so a long name is cut, never refused."""


@dataclass
class Verdict:
    """What became of one answer: kept (with its post file and bot name) or why not."""

    answer_id: int
    author: str
    source: str
    kept: bool
    reason: str = ""
    role: str = ""
    name: str = ""
    bot: str = ""
    file: str = ""


@dataclass
class Report:
    """The scrape's outcome: one verdict per answer, the near-identical pairs, the files."""

    verdicts: list[Verdict]
    similar: list[dict[str, Any]]
    bots_file: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "answers": [asdict(verdict) for verdict in self.verdicts],
            "near_identical": self.similar,
            "bots_file": self.bots_file,
            "kept": sum(verdict.kept for verdict in self.verdicts),
            "rejected": sum(not verdict.kept for verdict in self.verdicts),
        }


# -- one answer to one post ------------------------------------------------------------
def render_post(role: str, name: str, code: str, note: str) -> str:
    """A post file in the challenge's format: the header, a line saying where it came
    from, the code fenced with more backticks than any line of it holds."""
    longest = max(
        (len(run) for run in re.findall(r"^ {0,3}(`+|~+)", code, re.MULTILINE)), default=0
    )
    fence = "`" * max(3, longest + 1)
    title = "Adventurers" if role == "adventurers" else "Maze Master"
    return f"# {title}: {name}\n\n{note}\n\n{fence}js\n{code}\n{fence}\n"


def _post_of(answer: Answer) -> tuple[str, str, str]:
    """(role, name, code) of an answer; raises PostError with the reason to reject it."""
    heading = first_heading(answer.body)
    if heading is None:
        raise PostError(
            "no header: an answer starts with the heading '# Adventurers: NAME'"
            " or '# Maze Master: NAME'"
        )
    if ":" not in heading or not heading.split(":", 1)[1].strip():
        raise PostError(f"bad header {heading!r}: it must be '<submission type>: <name>'")
    role, name = parse_header("# " + heading)
    code = first_code_block(answer.body)
    if code is None or not code.strip():
        raise PostError("no code block")
    return role, name, code


def bot_name(name: str) -> str:
    """A tournament bot name for a post's name: runs of other characters become '-', and it
    starts with a letter, digit or '_' (a bots file's names are one word)."""
    return BOT_NAME.sub("-", name).lstrip("-.+")[:MAX_BOT_NAME].rstrip("-") or "bot"


def tokens(code: str) -> list[str]:
    """JavaScript tokens with comments and layout dropped (for near-identical code)."""
    pattern = (
        r"//[^\n]*|/\*.*?\*/|(\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'"
        r"|`(?:\\.|[^`\\])*`|[A-Za-z_$][\w$]*|\d[\w.]*|\S)"
    )
    return [match[1] for match in re.finditer(pattern, code, re.DOTALL) if match[1]]


def near_identical(posts: list[tuple[str, str, list[str]]]) -> list[dict[str, Any]]:
    """Pairs of bots (name, role, tokens) of the same role with similar code, most similar
    first."""
    pairs = []
    for (name_a, role_a, tokens_a), (name_b, role_b, tokens_b) in combinations(posts, 2):
        if role_a != role_b:
            continue
        matcher = difflib.SequenceMatcher(None, tokens_a, tokens_b, autojunk=False)
        if matcher.real_quick_ratio() < SIMILAR or matcher.quick_ratio() < SIMILAR:
            continue
        ratio = matcher.ratio()
        if ratio >= SIMILAR:
            pairs.append({"bots": [name_a, name_b], "role": role_a, "similarity": round(ratio, 3)})
    return sorted(pairs, key=lambda pair: -pair["similarity"])


# -- the whole scrape ------------------------------------------------------------------
def scrape(
    answers: list[Answer],
    out: Path,
    bots_file: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Report:
    """Write a post file per kept answer into `out`, the bots file (default
    `out/bots.toml`) and `out/report.json`; return the report."""
    out.mkdir(parents=True, exist_ok=True)
    bots_file = bots_file or out / "bots.toml"
    answers = unique_answers(answers)
    verdicts: list[Verdict] = []
    kept: list[tuple[Verdict, Any]] = []
    names: dict[str, Any] = {}
    bots: set[str] = set()
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o755)  # the sandbox's user (nobody) reads the drafts
        for index, answer in enumerate(answers):
            if progress is not None:
                progress(index, len(answers))
            verdict = Verdict(answer.answer_id, answer.author, answer.source, kept=False)
            verdicts.append(verdict)
            try:  # each answer alone: whatever one does, the others are still scraped
                found = _one(answer, index, Path(folder), out, names, bots, verdict)
            except (OSError, ValueError, RecursionError) as exc:
                verdict.kept, verdict.reason = False, f"cannot be scraped: {_why(exc)}"
                continue
            if found is not None:
                kept.append((verdict, found))
    bots_file.write_text(
        _bots_toml(out, bots_file, [verdict for verdict, _ in kept]), encoding="utf-8"
    )
    similar = near_identical([(verdict.bot, verdict.role, found) for verdict, found in kept])
    report = Report(verdicts, similar, str(bots_file))
    (out / "report.json").write_text(
        json.dumps(report.to_dict(), indent=1) + "\n", encoding="utf-8"
    )
    return report


def _why(error: BaseException) -> str:
    """One line of an item's error (an OSError's reason without its errno)."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    text = str(error).strip().splitlines()
    return text[0][:200] if text else type(error).__name__


def _one(
    answer: Answer,
    index: int,
    folder: Path,
    out: Path,
    names: dict[str, Any],
    bots: set[str],
    verdict: Verdict,
) -> list[str] | None:
    """Scrape one answer into `out`, filling in its verdict; its code's tokens when it is
    kept, else None (the verdict says why)."""
    if answer.problem:
        verdict.reason = answer.problem
        return None
    if not 0 < answer.answer_id < 2**63:
        verdict.reason = OUT_OF_RANGE
        return None
    try:
        role, name, code = _post_of(answer)
    except PostError as exc:
        verdict.reason = str(exc)
        return None
    except (ValueError, RecursionError) as exc:  # one bad answer, not the scrape
        verdict.reason = f"cannot be read: {type(exc).__name__}"
        return None
    unwritable = _unwritable(name + code)
    if unwritable:  # its name as a report can show it
        shown = name.encode("utf-8", "backslashreplace").decode().replace("\0", "\\0")
        verdict.role, verdict.name, verdict.reason = role, shown, unwritable
        return None
    verdict.role, verdict.name = role, name
    key = " ".join(name.split()).casefold()
    if key in names:
        verdict.reason = f"duplicate name {name!r} (answer {names[key]} has it)"
        return None
    names[key] = answer.answer_id
    text = render_post(role, name, code, _note(answer))
    draft = folder / f"draft-{index}.md"  # never a name from the answer
    draft.write_text(text, encoding="utf-8")
    problem = _problem(text, role, name, code, draft)
    if problem:
        verdict.reason = problem
        return None
    bot = bot_name(name)
    if bot.casefold() in bots:
        bot = f"{bot}-{answer.answer_id}"
    bots.add(bot.casefold())
    target = checked_path(out / f"{bot}.md", "post file")
    target.write_text(text, encoding="utf-8")
    verdict.kept, verdict.bot, verdict.file = True, bot, str(target)
    return tokens(code)


def _unwritable(text: str) -> str:
    """Why a post's name or code cannot be written as a post file ('' if it can): a NUL or
    a lone surrogate (which no UTF-8 file holds)."""
    if "\0" in text:
        return "a NUL character in its name or code"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "a lone surrogate in its name or code (not UTF-8)"
    return ""


def _note(answer: Answer) -> str:
    by = f" by {' '.join(answer.author.split())}" if answer.author else ""
    where = f" ({answer.link})" if answer.link else ""
    return f"Scraped by botarena from answer {answer.answer_id}{by}{where}."


def _problem(text: str, role: str, name: str, code: str, draft: Path) -> str:
    """Why a rendered post cannot be kept ('' when it can): it must read back as the same
    bot, compile, and build a bot with its role's methods."""
    try:
        post = parse_post(text)
    except PostError as exc:
        return f"cannot be written as a post: {exc}"
    if (post.role, post.name, post.code) != (role, name, code):
        return f"cannot be written as a post: the name {name!r} does not survive the header"
    ok, message = check_post(str(draft), timeout_s=CHECK_TIMEOUT_S)
    if ok:
        return ""
    first = message.splitlines()[0] if message else "node failed"
    for shown in (str(draft.resolve()), str(draft)):
        first = first.replace(shown, "the post")
    found = re.match(r"the post at line (\d+): (.*)", first)
    if found:
        line = int(found[1]) - post.first_line + 1
        source = code.split("\n")[line - 1].strip() if 0 < line <= code.count("\n") + 1 else ""
        return f"does not compile: code line {line}: {found[2]}" + (
            f" ({source})" if source else ""
        )
    return "does not build: " + first.removeprefix("the post: ")


def _bots_toml(out: Path, bots_file: Path, kept: list[Verdict]) -> str:
    """The tournament's bots file: a `[[bot]]` table per kept post, its `post:` path
    relative to the bots file's folder."""
    lines = [f"# Written by botarena labyrinth scrape: {len(kept)} bots.", ""]
    base = bots_file.resolve().parent
    for verdict in kept:
        path = Path(verdict.file).resolve()
        try:
            shown = path.relative_to(base).as_posix()
        except ValueError:
            shown = path.as_posix()
        lines += [
            "[[bot]]",
            f"name = {json.dumps(verdict.bot)}",
            f"command = {json.dumps('post:' + shown)}",
            f"role = {json.dumps(verdict.role)}",
            f"# {json.dumps(verdict.name, ensure_ascii=False)[1:-1]}, answer {verdict.answer_id}",
            "",
        ]
    return "\n".join(lines)
