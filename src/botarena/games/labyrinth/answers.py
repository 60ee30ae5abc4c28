"""The challenge's answers, read from where they are published: Stack Exchange API pages
(`/questions/{id}/answers?filter=withbody`, JSON with each answer's rendered HTML body), a
saved HTML page of the question, or a URL of either; each answer once, the earliest first.
"""

from __future__ import annotations

import html
import json
import re
import urllib.request
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from botarena.core.bounds import checked_path, digits_int
from botarena.games.labyrinth.htmlposts import Element, page_answers, parse_html


class ScrapeError(ValueError):
    """A source that cannot be read as answers; the message names it."""


MAX_SOURCE_BYTES = 64 << 20
"""The most a page, a file or an inflated download may hold (the challenge's whole question
page with every answer is a few MB): past it the source is refused, never read whole."""

MAX_API_PAGES = 200
"""The most API pages followed through `has_more` (100 answers each)."""


@dataclass
class Answer:
    """One answer to the challenge, its body as HTML (an Element tree). `problem`: why the
    source's entry for it cannot be an answer (then `answer_id` is a negative stand-in,
    unique in the scrape), so the scrape rejects it alone with that reason."""

    answer_id: int
    body: Element = field(repr=False)
    author: str = ""
    created: str = ""
    link: str = ""
    source: str = ""
    problem: str = ""


_unreadable = iter(range(-1, -(2**62), -1))
"""Stand-in ids of unreadable entries: negative (no real answer's), never repeated."""


def unreadable(problem: str, source: str) -> Answer:
    """An entry of a source that is not an answer, to be rejected alone with `problem`."""
    return Answer(next(_unreadable), Element("#root"), source=source, problem=problem)


class _BigNumber(str):
    """A JSON integer too long to be an id (kept as its text, not parsed)."""


def _parse_int(text: str) -> int | str:
    """JSON integers as ints, but one longer than int() converts stays text: one answer's
    5 000-digit id is that answer's problem, not the page's ValueError."""
    value = digits_int(text)
    return _BigNumber(text) if value is None else value


OUT_OF_RANGE = "answer id out of range (1 to 2**63 - 1)"


def read_source(path: Path) -> list[Answer]:
    """The answers in one file: Stack Exchange API JSON (one page of
    `/questions/{id}/answers?filter=withbody`) or a saved HTML page of the question."""
    checked_path(path, "answer file", ScrapeError)
    try:
        with path.open("rb") as source:
            raw = source.read(MAX_SOURCE_BYTES + 1)
    except OSError as exc:
        raise ScrapeError(f"{path}: cannot read ({exc})") from None
    return answers_from_text(_text(raw, str(path)), str(path))


def _text(raw: bytes, source: str) -> str:
    """A source's bytes as text (gzip undone), refused past MAX_SOURCE_BYTES or when not
    UTF-8, in bounded memory whatever the compression ratio."""
    if raw[:2] == b"\x1f\x8b":
        inflate = zlib.decompressobj(wbits=31)
        try:
            raw = inflate.decompress(raw, MAX_SOURCE_BYTES + 1)
        except zlib.error as exc:
            raise ScrapeError(f"{source}: not a readable gzip stream ({exc})") from None
    if len(raw) > MAX_SOURCE_BYTES:
        raise ScrapeError(f"{source}: more than {MAX_SOURCE_BYTES >> 20} MiB; refused")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ScrapeError(f"{source}: not UTF-8 text ({exc})") from None


def answers_from_text(text: str, source: str) -> list[Answer]:
    """Answers from API JSON (a text starting with `{`) or from an HTML page."""
    if text.lstrip().startswith("{"):
        return _api_answers(text, source)
    answers = [
        Answer(found.answer_id, found.body, found.author, found.created, source=source)
        if found.answer_id is not None
        else unreadable(found.problem, source)
        for found in page_answers(parse_html(text))
    ]
    if not answers:
        raise ScrapeError(
            f"{source}: no answers found (a saved question page has"
            " elements of class 'answer' with data-answerid)"
        )
    return answers


def _api_answers(text: str, source: str) -> list[Answer]:
    try:
        document = json.loads(text, parse_int=_parse_int)
    except ValueError as exc:
        raise ScrapeError(f"{source}: not JSON ({exc})") from None
    except RecursionError:
        raise ScrapeError(f"{source}: JSON nested too deep to be an API response") from None
    if not isinstance(document, dict):
        raise ScrapeError(f"{source}: not a Stack Exchange API response")
    if "error_id" in document:
        raise ScrapeError(
            f"{source}: the API answered error {document['error_id']}"
            f" {document.get('error_name', '')}: {document.get('error_message')}"
        )
    items = document.get("items")
    if not isinstance(items, list):
        raise ScrapeError(f"{source}: not a Stack Exchange API response (no 'items')")
    answers = []
    for index, item in enumerate(items):
        identity = item.get("answer_id") if isinstance(item, dict) else None
        if isinstance(identity, _BigNumber):
            digits = len(identity.lstrip("-"))
            answers.append(unreadable(f"{OUT_OF_RANGE}: {digits} digits", source))
            continue
        if not isinstance(item, dict) or type(identity) is not int:
            answers.append(unreadable(f"item {index} is not an answer (no answer_id)", source))
            continue
        if not isinstance(item.get("body"), str):
            if all(not isinstance(other, dict) or "body" not in other for other in items):
                raise ScrapeError(
                    f"{source}: answer {identity} has no body; fetch with filter=withbody"
                )
            answers.append(unreadable(f"answer {identity} has no body", source))
            continue
        owner = item.get("owner")
        owner = owner if isinstance(owner, dict) else {}
        created = item.get("creation_date")
        answers.append(
            Answer(
                item["answer_id"],
                parse_html(item["body"]),
                html.unescape(str(owner.get("display_name", ""))),  # the API escapes names
                str(created) if type(created) is int else "",
                str(item.get("link", "")),
                source,
            )
        )
    return answers


def fetch_api_pages(url: str, get: Callable[[str], bytes] | None = None) -> Iterator[str]:
    """The texts of an API URL's pages, following `has_more` (page=1, 2, ...); `get`
    fetches one URL (default: urllib, gzip undone: the API always compresses)."""
    get = get or _http_get
    page = 1
    while page <= MAX_API_PAGES:
        separator = "&" if "?" in url else "?"
        paged = (
            re.sub(r"([?&])page=\d+", rf"\g<1>page={page}", url)
            if "page=" in url
            else f"{url}{separator}page={page}"
        )
        text = _text(get(paged), paged)
        yield text
        try:
            more = json.loads(text, parse_int=_parse_int).get("has_more") is True
        except (ValueError, AttributeError, RecursionError):
            more = False
        if not more:
            return
        page += 1
    raise ScrapeError(f"{url}: more than {MAX_API_PAGES} pages (has_more never ends); refused")


def _http_get(url: str) -> bytes:
    request = urllib.request.Request(
        url, headers={"Accept-Encoding": "gzip", "User-Agent": "botarena-scraper"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return bytes(response.read(MAX_SOURCE_BYTES + 1))
    except OSError as exc:
        raise ScrapeError(f"{url}: cannot fetch ({exc})") from None


def read_url(url: str) -> list[Answer]:
    """The answers behind a URL: an API URL (every page) or a question page."""
    if "api.stackexchange.com" in url:
        return [answer for text in fetch_api_pages(url) for answer in answers_from_text(text, url)]
    return answers_from_text(_text(_http_get(url), url), url)


def unique_answers(answers: list[Answer]) -> list[Answer]:
    """Each answer once (paged files may overlap), the earliest posted first (it keeps a
    name others reuse); answers without a date keep their order, after dated ones."""
    seen: dict[int, Answer] = {}
    for answer in answers:
        seen.setdefault(answer.answer_id, answer)
    order = {answer_id: index for index, answer_id in enumerate(seen)}
    return sorted(seen.values(), key=lambda a: (_date_key(a.created), order[a.answer_id]))


def _date_key(created: str) -> tuple[int, float]:
    """API dates are epoch seconds, page dates ISO texts (UTC); unknown dates sort last."""
    if created.isascii() and created.isdigit():
        return 0, float(created)
    try:
        moment = datetime.fromisoformat(created.replace("Z", "+00:00"))
    except ValueError:
        return 1, 0.0
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return 0, moment.timestamp()
