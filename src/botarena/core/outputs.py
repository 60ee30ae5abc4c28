"""Where the jury writes a file a user named (`--replay`, `-o`): one rule for every command.

The file's folder must exist, or be one missing folder inside an existing one (then it is
created, as `play --replay runs/game.json.gz` wants); deeper chains of missing folders and
new folders at the filesystem root are refused, as is a name that is empty or a folder, so
a typo never scatters folders or fails only after a long game.
"""

from __future__ import annotations

from pathlib import Path

from botarena.core.bounds import checked_path
from botarena.core.rules import GameError


def output_path(path: str | Path, option: str, *, not_same_as: str | Path | None = None) -> Path:
    """`path` checked as a file to write for `option` (its folder created when it is one
    missing level); raises GameError naming the option. `not_same_as`: an input file the
    output must not overwrite."""
    text = str(path)
    if not text.strip():
        raise GameError(f"{option} is empty; give a file name")
    target = checked_path(text, option)  # a NUL or an over-long name, before any folder
    if target.is_dir():
        raise GameError(f"{option} {text}: is a folder; give a file name inside it")
    if (
        not_same_as is not None
        and target.exists()
        and target.resolve() == Path(not_same_as).resolve()
    ):
        raise GameError(f"{option} {text}: is the input file; it would be overwritten")
    folder = target.parent
    if not folder.exists():
        grand = folder.parent
        if not grand.is_dir() or grand.resolve().parent == grand.resolve():  # "/" is its own
            raise GameError(
                f"{option} {text}: folder {folder} does not exist (botarena creates"
                " one missing folder, inside an existing one other than /)"
            )
        try:
            folder.mkdir()
        except OSError as exc:
            raise GameError(
                f"{option} {text}: cannot create folder {folder} ({exc.strerror or exc})"
            ) from None
    elif not folder.is_dir():
        raise GameError(f"{option} {text}: {folder} is not a folder")
    return target
