"""No layer above `core`, nor `core` itself, knows any game: a game is a plug-in
(docs/new-game.md), so its name and its own words live only in its package."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src" / "botarena"
LAYERS = ("core", "tournament", "web", "stats", "compare.py", "cli.py", "cliparts.py")
GAME_WORDS = re.compile(
    r"amazes|falldown|labyrinth|\bants?\b|maze|adventurer|bookmaker|eliminat|\bhills?\b"
    r"|botarena\.games\.[\w{]",
    re.IGNORECASE,
)
"""The four games' names, their own words, and the package of the four (a contest's name,
such as CodeCup, names a tradition several games share, not a game)."""


def layer_files() -> list[Path]:
    files = []
    for layer in LAYERS:
        path = SRC / layer
        files += (
            sorted(p for p in path.rglob("*") if p.suffix in (".py", ".js", ".html", ".css"))
            if path.is_dir()
            else [path]
        )
    return files


@pytest.mark.parametrize("path", layer_files(), ids=lambda path: str(path.relative_to(SRC)))
def test_the_layer_names_no_game(path: Path) -> None:
    hits = [
        f"{number}: {line.strip()}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if GAME_WORDS.search(line)
    ]
    assert hits == []


def test_the_pattern_finds_what_it_must() -> None:
    for line in (
        "from botarena.games.ants import x",
        'resources.files(f"botarena.games.{game}")',
        "the Labyrinth's maze master",
        "the Amazes maze",
        "an ant",
        "Falldown",
    ):
        assert GAME_WORDS.search(line), line
    for line in ("wants a low score", "the game's status words", "giants"):
        assert not GAME_WORDS.search(line), line


def test_no_import_circles() -> None:
    """Each shared thing has one home (#24): no module imports, even lazily, one that imports
    it back, but for a game package and its own modules (the package builds `GAME` lazily
    from them, and they ask it for `INFO`, as a plug-in's module does)."""
    grimp = pytest.importorskip("grimp")  # import-linter's graph, in the test extras
    graph = grimp.build_graph("botarena", cache_dir=None)
    circles = set()
    for importer in graph.modules:
        for imported in graph.find_modules_directly_imported_by(importer):
            if graph.find_shortest_chain(importer=imported, imported=importer):
                circles.add(tuple(sorted((importer, imported))))

    def one_game(pair: tuple[str, str]) -> bool:
        games = {".".join(name.split(".")[:3]) for name in pair}
        return len(games) == 1 and next(iter(games)).startswith("botarena.games.")

    assert sorted(pair for pair in circles if not one_game(pair)) == []
