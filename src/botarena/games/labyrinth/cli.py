"""`botarena labyrinth ...`: tools for Labyrinth submissions (check-post)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from botarena.core.spec import BotSpecError

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                  rich_markup_mode=None)


@app.command("check-post")
def check_post_command(post: Annotated[Path, typer.Argument(help="a post file (markdown)")]
                       ) -> None:
    """Check an original JavaScript submission: the header, the first code block, that it
    compiles (syntax errors with the post's line numbers) and builds a bot with the role's
    methods. Exit 0 when it is fine, 1 when the code is wrong, 2 when it is not a post."""
    from botarena.games.labyrinth.post import check_post

    try:
        ok, message = check_post(str(post))
    except BotSpecError as exc:
        print(f"botarena: error: {exc}", file=sys.stderr)
        raise typer.Exit(2) from None
    print(message)
    raise typer.Exit(0 if ok else 1)
