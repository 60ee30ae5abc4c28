"""Sizes of botarena's modules: lines, the longest class and the longest function of each,
flagging a module over 700 lines or a class over 250 (issue #35's measure; the games'
rules, which follow their rule texts, are measured but not flagged).

`python bench/sizes.py` prints the table, largest module first; `python bench/run.py sizes`
gives the counts of flags as figures.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "botarena"
MODULE_LIMIT = 700
CLASS_LIMIT = 250
UNFLAGGED = "games/*/rules.py"
"""The games' rules follow their rule texts: measured, never flagged."""


@dataclass(frozen=True)
class Size:
    """One module's lines, its longest class and its longest function (name, lines)."""

    path: str
    """Relative to src/botarena/."""
    lines: int
    longest_class: tuple[str, int]
    longest_function: tuple[str, int]

    @property
    def judged(self) -> bool:
        """Whether the limits apply to it: not to a game's rules."""
        return not Path(self.path).match(UNFLAGGED)

    @property
    def flags(self) -> list[str]:
        """The limits it is over; none for a game's rules."""
        if not self.judged:
            return []
        flags = []
        if self.lines > MODULE_LIMIT:
            flags.append(f"module > {MODULE_LIMIT}")
        if self.longest_class[1] > CLASS_LIMIT:
            flags.append(f"class > {CLASS_LIMIT}")
        return flags


def span(node: ast.AST) -> int:
    """Lines a definition takes, its decorators included."""
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return (node.end_lineno or node.lineno) - first + 1


def longest(nodes: list[tuple[str, int]]) -> tuple[str, int]:
    """The (name, lines) with the most lines, ('', 0) for none."""
    return max(nodes, key=lambda item: item[1], default=("", 0))


def measure(path: Path) -> Size:
    """The size of the module at `path`: a method is named Class.method."""
    text = path.read_text()
    tree = ast.parse(text)
    classes: list[tuple[str, int]] = []
    functions: list[tuple[str, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                classes.append((prefix + child.name, span(child)))
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                functions.append((prefix + child.name, span(child)))
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(tree, "")
    return Size(
        str(path.relative_to(SRC)),
        len(text.splitlines()),
        longest(classes),
        longest(functions),
    )


def sizes(root: Path = SRC) -> list[Size]:
    """Every module under `root`, largest first."""
    found = [measure(path) for path in root.rglob("*.py") if "__pycache__" not in path.parts]
    return sorted(found, key=lambda size: (-size.lines, size.path))


def table(found: list[Size]) -> str:
    """The table as text: module, lines, longest class, longest function, flags."""
    rows = [("module", "lines", "longest class", "longest function", "flags")]
    for size in found:
        kind, lines = size.longest_class
        name, length = size.longest_function
        rows.append(
            (
                size.path,
                str(size.lines),
                f"{kind} ({lines})" if kind else "",
                f"{name} ({length})" if name else "",
                ", ".join(size.flags),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    )


def main() -> int:
    found = sizes()
    print(table(found))
    flagged = [size for size in found if size.flags]
    print(f"\n{len(found)} modules, {len(flagged)} flagged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
