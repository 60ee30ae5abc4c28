"""Answers as Stack Exchange renders them in HTML: find each answer's body in a saved
question page, and read a body's header and first code block as the author wrote them.

Built on the standard library's `html.parser`: entities come back as their characters
(`&lt;` is `<`, `&amp;` is `&`), a `<br>` inside a code block is a line break and any other
markup inside it (a nested `<code>`, highlighting spans) keeps only its text, so a code
block reads as the author's exact text.

>>> body = parse_html("<h1>Maze Master: <em>M</em></h1>"
...                   "<pre><code>a &lt; b &amp;&amp; c\\n</code></pre>")
>>> first_heading(body), first_code_block(body)
('Maze Master: M', 'a < b && c')
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser

from botarena.core.bounds import digits_int

VOID = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)
"""Elements that never have an end tag."""

CLOSED_BY_BLOCK = frozenset(["p", "li", "dt", "dd", "option"])
"""Elements whose end tag may be left out: a new block element closes them."""

BLOCKS = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "details",
        "div",
        "dl",
        "fieldset",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hr",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "table",
        "ul",
    ]
)

HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


@dataclass
class Element:
    """An HTML element: its tag, attributes and children (elements and text)."""

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Element | str] = field(default_factory=list)

    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def walk(self) -> list[Element]:
        """This element and every element inside it, in document order."""
        found, stack = [], [self]
        while stack:
            element = stack.pop()
            found.append(element)
            stack.extend(
                child for child in reversed(element.children) if isinstance(child, Element)
            )
        return found

    def text(self) -> str:
        """The text inside, entities decoded, markup dropped, `<br>` a line break."""
        parts: list[str] = []
        stack: list[Element | str] = [self]
        while stack:
            node = stack.pop()
            if isinstance(node, str):
                parts.append(node)
            elif node.tag == "br":
                parts.append("\n")
            else:
                stack.extend(reversed(node.children))
        return "".join(parts)


class _TreeBuilder(HTMLParser):
    """Builds an Element tree leniently: void elements, omitted end tags, stray end tags."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#root")
        self.stack = [self.root]
        self.open: Counter[str] = Counter()  # how many elements of each tag the stack holds
        self.after_pre = False  # a line break right after <pre> is not content (HTML spec)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in BLOCKS and self.stack[-1].tag in CLOSED_BY_BLOCK:
            self.open[self.stack.pop().tag] -= 1
        element = Element(tag, {key: value or "" for key, value in attrs})
        self.stack[-1].children.append(element)
        if tag not in VOID:
            self.stack.append(element)
            self.open[tag] += 1
        self.after_pre = tag == "pre"

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Element(tag, {key: value or "" for key, value in attrs}))
        self.after_pre = False

    def handle_endtag(self, tag: str) -> None:
        self.after_pre = False
        if not self.open[tag]:  # a stray end tag: ignored at once (a page of stray end
            return  # tags under deep nesting would otherwise cost a scan of the stack each)
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                self.open.subtract(element.tag for element in self.stack[depth:])
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        if self.after_pre and data.startswith("\n"):
            data = data[1:]
        self.after_pre = False
        if data:
            self.stack[-1].children.append(data)


def parse_html(text: str) -> Element:
    """The element tree of an HTML page or fragment (under a `#root` element), in time
    linear in the text's length whatever the text."""
    builder = _TreeBuilder()
    builder.feed(_unclosable_as_text(text))
    builder.close()
    return builder.root


def _unclosable_as_text(text: str) -> str:
    """`text` with every `<` after the last `>` written `&lt;`: no tag, comment or
    declaration can end there, so it is text either way; the standard parser would search
    the rest of the text for a `>` from each of them (quadratic on a page of `</` or `<?`)."""
    last = text.rfind(">")
    return text[: last + 1] + text[last + 1 :].replace("<", "&lt;")


@dataclass(frozen=True)
class PageAnswer:
    """An answer found in a saved question page (`answer_id` None: its id is too long to
    be one, and `problem` says so)."""

    answer_id: int | None
    body: Element
    author: str
    created: str
    problem: str = ""


def page_answers(page: Element) -> list[PageAnswer]:
    """The answers of a saved question page, in page order: each `answer` element (it
    carries `data-answerid`) and its body (`js-post-body`, or `post-text` in the older
    layout); the question's own body is not an answer."""
    answers = []
    for element in page.walk():
        if "answer" not in element.classes() or not _ascii_digits(
            element.attrs.get("data-answerid", "")
        ):
            continue
        body = next(
            (inner for inner in element.walk() if inner.classes() & {"js-post-body", "post-text"}),
            None,
        )
        if body is None:
            continue
        digits = element.attrs["data-answerid"]
        number = digits_int(digits)
        if number is None:  # int() would raise past 4 300 digits
            problem = f"answer id out of range (1 to 2**63 - 1): {len(digits)} digits"
            answers.append(PageAnswer(None, body, _author(element), "", problem))
            continue
        answers.append(PageAnswer(number, body, _author(element), _created(element)))
    return answers


def _ascii_digits(text: str) -> bool:
    """Digits 0-9 only (str.isdigit also takes '²' and other scripts' digits, which int()
    refuses)."""
    return text.isascii() and text.isdigit()


def _author(answer: Element) -> str:
    """The answer's owner: the `itemprop="author"` card, else the last user card (an
    editor's card comes before the owner's)."""
    cards = [inner for inner in answer.walk() if "user-details" in inner.classes()]
    owner = next((card for card in cards if card.attrs.get("itemprop") == "author"), None)
    for card in [owner] if owner else cards[::-1]:
        link = next((inner for inner in card.walk() if inner.tag == "a"), None)
        if link is not None:
            return " ".join(link.text().split())
    return ""


def _created(answer: Element) -> str:
    """When the answer was posted: the `time` of its `itemprop="dateCreated"`, else ''."""
    for inner in answer.walk():
        if inner.attrs.get("itemprop") == "dateCreated":
            return inner.attrs.get("datetime", "")
    return ""


def first_heading(body: Element) -> str | None:
    """The text of the body's first block when it is a heading (`# TYPE: NAME` renders as
    `<h1>`), else None: the header must come first."""
    for child in body.children:
        if isinstance(child, str):
            if child.strip():
                return None
            continue
        if child.tag in HEADINGS:
            return " ".join(child.text().split())
        if child.text().strip() or child.tag in BLOCKS:
            return None
    return None


def first_code_block(body: Element) -> str | None:
    """The text of the body's first code block (`<pre>`), without the line break Markdown
    ends it with; None when there is none."""
    pre = next((element for element in body.walk() if element.tag == "pre"), None)
    if pre is None:
        return None
    text = pre.text()
    return text[:-1] if text.endswith("\n") else text
