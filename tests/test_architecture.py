"""docs/architecture.md cannot drift: every path it names exists, and the layers it states
are the import contracts `lint-imports` checks (pyproject.toml's [tool.importlinter])."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "docs" / "architecture.md"
SRC = ROOT / "src" / "botarena"
ROOT_PREFIXES = ("docs/", "tests/", "bench/", "examples/")
ROOT_FILES = {"pyproject.toml"}
"""The doc's convention: a path in backticks is relative to src/botarena/, but for these,
relative to the repository's root; a `*` stands for every folder there."""
TICKED = re.compile(r"`([^`\s]+)`")
PATHLIKE = re.compile(r"[\w.-]+(/[\w.*-]*)*")
SUFFIXES = (".py", ".js", ".md", ".toml", ".html", ".css")
NAMED = re.compile(r"`([\w/]+\.py)` `([A-Za-z_][\w.]*)`")
"""A module's path followed by a name it defines: `core/match.py` `run_match`."""
FENCE = re.compile(r"^```(\S*)\n(.*?)^```", re.S | re.M)


def named_paths(text: str) -> list[str]:
    """Every backticked token that is a path: a bare name with a `/` or a file suffix
    (`core/match.py`, `arena/api/`, `cli.py`); not a dotted module, a spec or a command."""
    return [
        token
        for token in TICKED.findall(text)
        if PATHLIKE.fullmatch(token) and ("/" in token or token.endswith(SUFFIXES))
    ]


def where(path: str) -> Path:
    if path.startswith(ROOT_PREFIXES) or path in ROOT_FILES:
        return ROOT / path
    return SRC / path


def missing(path: str) -> list[str]:
    """`path`, or each folder's path a `*` stands for, that does not exist."""
    if "*" not in path:
        return [] if where(path).exists() else [path]
    folder, rest = path.split("/*/", 1)
    found = sorted(p for p in where(folder).iterdir() if p.is_dir() and p.name != "__pycache__")
    assert found, f"{folder}/ holds no folder for {path}"
    return [f"{folder}/{p.name}/{rest}" for p in found if not (p / rest).exists()]


def defines(module: ast.Module, dotted: str) -> bool:
    """Whether a module defines `dotted` (`run_match`, `Store.finish`) at its top level, a
    class's name in that class's body."""
    body: list[ast.stmt] = module.body
    for name in dotted.split("."):
        found = [node for node in body if name in _names(node)]
        if not found:
            return False
        body = getattr(found[0], "body", [])
    return True


def _names(node: ast.stmt) -> set[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
    return {target.id for target in targets if isinstance(target, ast.Name)}


def stated_contracts(text: str) -> str:
    """The fenced block that follows the heading `## Layers`."""
    section = text.split("\n## Layers\n", 1)[1]
    block = FENCE.search(section)
    assert block, "docs/architecture.md states no contracts block under ## Layers"
    return block.group(2)


def render(contracts: list[dict[str, Any]]) -> str:
    """The contracts as the doc writes them: a layers contract as its top layer and each
    lower one `above`, a forbidden one as `SOURCE imports none of ...`."""
    lines = []
    for contract in contracts:
        if contract["type"] == "layers":
            top, *lower = contract["layers"]
            lines += [top, *(f"  above {layer}" for layer in lower)]
        elif contract["type"] == "forbidden":
            forbidden = ", ".join(contract["forbidden_modules"])
            lines += [
                f"{source} imports none of {forbidden}" for source in contract["source_modules"]
            ]
        else:  # a kind the doc has no line for yet: the map must learn to state it
            lines.append(f"{contract['type']} contract {contract['name']!r}")
    return "\n".join(lines) + "\n"


def test_every_named_path_exists() -> None:
    paths = named_paths(MAP.read_text(encoding="utf-8"))
    assert len(paths) > 50  # the map names its rooms; a parsing slip would find none
    assert [gone for path in paths for gone in missing(path)] == []


def test_every_named_definition_exists() -> None:
    pairs = NAMED.findall(MAP.read_text(encoding="utf-8"))
    assert len(pairs) > 20
    modules = {path: ast.parse(where(path).read_bytes()) for path, _ in pairs}
    assert [f"{path} {name}" for path, name in pairs if not defines(modules[path], name)] == []


def test_a_definition_is_found_where_it_is() -> None:
    module = ast.parse("class Store:\n    def finish(self): ...\ndef run(): ...\nLIMIT: int = 3\n")
    assert [defines(module, name) for name in ("Store.finish", "run", "LIMIT")] == [True] * 3
    assert [defines(module, name) for name in ("finish", "Store.run", "Gone")] == [False] * 3


def test_the_stated_layers_are_the_import_contracts() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    assert stated_contracts(MAP.read_text(encoding="utf-8")) == render(contracts)


def test_the_path_convention() -> None:
    text = (
        "`core/match.py` `arena/api/` `cli.py` `docs/new-game.md` `pyproject.toml` "
        "`games/*/rules.py` "
        "`botarena.core` `builtin:amazes/explorer` `tournament work` `run_match` `/api/x`"
    )
    assert named_paths(text) == [
        "core/match.py",
        "arena/api/",
        "cli.py",
        "docs/new-game.md",
        "pyproject.toml",
        "games/*/rules.py",
    ]
    assert where("core/match.py") == SRC / "core" / "match.py"
    assert where("docs/new-game.md") == ROOT / "docs" / "new-game.md"
    assert missing("games/*/rules.py") == []
    assert missing("games/*/nothing.py") == [f"games/{game}/nothing.py" for game in GAMES]


GAMES = ("amazes", "ants", "falldown", "labyrinth")
