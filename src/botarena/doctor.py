"""`botarena doctor`: which sandbox protections this machine gives bots, and why not."""

from __future__ import annotations

import json
from typing import Annotated

import typer


def doctor(as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False) -> None:
    """Report which sandbox protections are active on this machine, and why not if not
    (docs/sandbox.md)."""
    from rich.table import Table
    from rich.text import Text

    from botarena.core.console import literal_console
    from botarena.core.sandbox import protections

    found = protections()
    if as_json:
        print(
            json.dumps(
                [{"protection": item.name, "on": item.on, "how": item.how} for item in found]
            )
        )
        return
    table = Table("protection", "on", "how, or why not")
    for item in found:
        table.add_row(item.name, "yes" if item.on else Text("NO", style="red"), item.how)
    literal_console().print(table)
    note = python_shim_note()
    if note:
        print(note)


def python_shim_note() -> str | None:
    """What `python3` on the PATH is when it is an interpreter shim (pyenv, asdf), or None:
    bot commands naming it run the interpreter it resolves to, or are refused."""
    import os
    import shutil

    from botarena.core.shims import ShimError, resolve

    program = shutil.which("python3")
    if program is None:
        return None
    said = f"python3 on the PATH is an interpreter shim ({program}): "
    try:
        found = resolve(os.path.abspath(program))
    except ShimError as exc:
        return said + f"bot commands naming python3 are refused ({exc})"
    if found is None:
        return None
    return said + f"bot commands naming python3 run {found.program}"
