"""A typer command group whose subcommands are imported only when one of them is run.

`botarena play` must not pay for importing every game's tools, a tournament store or a web
server: each lazy entry names where its command lives and is imported on first use (its
help line aside, which `botarena --help` reads from the entry itself).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import typer
from typer.core import MarkupMode, TyperGroup
from typer.main import get_command_from_info, get_group_from_info
from typer.models import CommandInfo, TyperInfo

if TYPE_CHECKING:  # typer 0.28 vendors click as typer._click
    from typer._click.core import Command, Context


@dataclass(frozen=True)
class LazyCommand:
    """`botarena NAME`, imported when run.

    `target` is `"module:attribute"`: a `typer.Typer` (a group, `botarena NAME SUB ...`) or
    a function annotated as for `@app.command()` (one command, `botarena NAME ...`). `help`
    is its line in `botarena --help` (a callable: computed only when needed). `available`,
    if given, says whether the command exists at all (asked only when it is looked up).
    """

    target: str
    help: str | Callable[[], str]
    available: Callable[[], bool] | None = None

    def exists(self) -> bool:
        return self.available is None or self.available()

    def load(self, name: str, rich_markup_mode: MarkupMode) -> Command:
        """Import the target and build its click command, as `add_typer`/`command` would."""
        module, _, attribute = self.target.partition(":")
        target = getattr(importlib.import_module(module), attribute)
        help_text = self.help if isinstance(self.help, str) else self.help()
        if isinstance(target, typer.Typer):
            return get_group_from_info(
                TyperInfo(target, name=name, help=help_text),
                pretty_exceptions_short=True,
                suggest_commands=True,
                rich_markup_mode=rich_markup_mode,
            )
        return get_command_from_info(
            CommandInfo(name=name, callback=target, short_help=help_text),
            pretty_exceptions_short=True,
            rich_markup_mode=rich_markup_mode,
        )


def lazy_group(commands: Mapping[str, LazyCommand]) -> type[TyperGroup]:
    """A `TyperGroup` class (for `typer.Typer(cls=...)`) that adds `commands` after the
    eagerly defined ones, each imported the first time it is looked up."""

    class LazyGroup(TyperGroup):
        def list_commands(self, ctx: Context) -> list[str]:
            eager = super().list_commands(ctx)
            return [
                *eager,
                *(
                    name
                    for name, command in commands.items()
                    if name not in eager and command.exists()
                ),
            ]

        def get_command(self, ctx: Context, cmd_name: str) -> Any:
            if (
                cmd_name in commands
                and cmd_name not in self.commands
                and commands[cmd_name].exists()
            ):
                self.add_command(commands[cmd_name].load(cmd_name, self.rich_markup_mode), cmd_name)
            return super().get_command(ctx, cmd_name)

    return LazyGroup
