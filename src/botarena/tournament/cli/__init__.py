"""`botarena tournament ...`: new, run, add-bot, update-bot, standings, games, cross-table, list.

The commands live by subject: creating and changing a tournament (`create.py`), running
and working (`running.py`), a ladder's stages and finals (`stages.py`), reading standings,
games and cross tables (`reading.py`), what they share (`common.py`). They are registered
here, in the order `botarena tournament --help` lists them.

Importing this package stays light: the store (SQLAlchemy), the rules and the ranking are
imported inside the commands that use them.
"""

import typer

from botarena.tournament.cli.common import build_dir, name_problem, open_store
from botarena.tournament.cli.create import add_bot, new, update_bot
from botarena.tournament.cli.reading import (
    cross_table,
    current_standings,
    list_games,
    list_tournaments,
    print_standings,
    replay,
    standings,
)
from botarena.tournament.cli.running import play_with_progress, run, work
from botarena.tournament.cli.stages import finals, retire_bot, stage

app = typer.Typer(
    help="Tournaments: schedules, a store that survives kill -9, standings.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
app.command()(new)
app.command()(run)
app.command()(work)
app.command("retire-bot")(retire_bot)
app.command()(stage)
app.command()(finals)
app.command()(replay)
app.command("add-bot")(add_bot)
app.command("update-bot")(update_bot)
app.command()(standings)
app.command("games")(list_games)
app.command("cross-table")(cross_table)
app.command("list")(list_tournaments)

__all__ = [
    "app",
    "build_dir",
    "current_standings",
    "name_problem",
    "open_store",
    "play_with_progress",
    "print_standings",
]
