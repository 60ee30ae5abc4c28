"""Bots written for the 2011 contest run unchanged: the Python starter's I/O loop, a C bot on
stdio buffers, a bot writing Windows line ends in scattered pieces.

The Python pair below re-creates, in our own words, what the 2011 starter package's `ants.py`
and `MyBot.py` do on the wire (research/ants.md §1-2): read stdin line by line with
`readline().rstrip('\\r\\n')`, gather lines until `ready` or `go` (compared lowercased), write
each order and `go` with `sys.stdout.flush()`, survive its own exceptions, and, because
`readline()` returns '' at end of input instead of raising, spin forever after the game:
the jury has to stop it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import botarena
from botarena.core.replay import load
from botarena.games.ants.replay2011 import export_replay
from conftest import leftovers

ANTS_PY = textwrap.dedent("""
    import sys
    import time
    import traceback

    LAND, FOOD, WATER = -2, -3, -4
    AIM = {"n": (-1, 0), "e": (0, 1), "s": (1, 0), "w": (0, -1)}


    class Ants:
        def __init__(self):
            self.rows = self.cols = None
            self.turntime = 0
            self.map = None
            self.ant_list, self.food_list, self.hill_list = {}, [], {}
            self.turn_start_time = 0.0

        def setup(self, data):
            for line in data.split("\\n"):
                tokens = line.strip().lower().split()
                if len(tokens) == 2 and tokens[0] in ("rows", "cols", "turntime"):
                    setattr(self, tokens[0], int(tokens[1]))
            self.map = [[LAND] * self.cols for _ in range(self.rows)]

        def update(self, data):
            self.turn_start_time = time.time()
            for row, col in list(self.ant_list) + self.food_list:
                self.map[row][col] = LAND
            self.ant_list, self.food_list, self.hill_list = {}, [], {}
            for line in data.split("\\n"):
                tokens = line.strip().lower().split()
                if len(tokens) < 3:
                    continue
                row, col = int(tokens[1]), int(tokens[2])
                if tokens[0] == "w":
                    self.map[row][col] = WATER
                elif tokens[0] == "f":
                    self.map[row][col] = FOOD
                    self.food_list.append((row, col))
                elif tokens[0] == "a":
                    self.map[row][col] = int(tokens[3])
                    self.ant_list[(row, col)] = int(tokens[3])
                elif tokens[0] == "h":
                    self.hill_list[(row, col)] = int(tokens[3])

        def time_remaining(self):
            return self.turntime - int(1000 * (time.time() - self.turn_start_time))

        def my_ants(self):
            return [loc for loc, owner in self.ant_list.items() if owner == 0]

        def destination(self, loc, direction):
            row, col = loc
            d_row, d_col = AIM[direction]
            return ((row + d_row) % self.rows, (col + d_col) % self.cols)

        def passable(self, loc):
            return self.map[loc[0]][loc[1]] != WATER

        def issue_order(self, order):
            (row, col), direction = order
            sys.stdout.write("o %s %s %s\\n" % (row, col, direction))
            sys.stdout.flush()

        def finish_turn(self):
            sys.stdout.write("go\\n")
            sys.stdout.flush()

        @staticmethod
        def run(bot):
            ants = Ants()
            map_data = ""
            while True:
                try:
                    current_line = sys.stdin.readline().rstrip("\\r\\n")
                    if current_line.lower() == "ready":
                        ants.setup(map_data)
                        bot.do_setup(ants)
                        ants.finish_turn()
                        map_data = ""
                    elif current_line.lower() == "go":
                        ants.update(map_data)
                        bot.do_turn(ants)
                        ants.finish_turn()
                        map_data = ""
                    else:
                        map_data += current_line + "\\n"
                except EOFError:
                    break
                except KeyboardInterrupt:
                    raise
                except Exception:
                    traceback.print_exc(file=sys.stderr)
                    sys.stderr.flush()
""")

MYBOT_PY = textwrap.dedent("""
    from ants import Ants


    class MyBot:
        def do_setup(self, ants):
            pass

        def do_turn(self, ants):
            taken = set()
            for loc in ants.my_ants():
                for direction in ("n", "e", "s", "w"):
                    new_loc = ants.destination(loc, direction)
                    if (ants.passable(new_loc) and new_loc not in taken
                            and new_loc not in ants.ant_list):
                        ants.issue_order((loc, direction))
                        taken.add(new_loc)
                        break
                else:
                    taken.add(loc)
                if ants.time_remaining() < 10:
                    break


    if __name__ == "__main__":
        try:
            import psyco
            psyco.full()
        except ImportError:
            pass
        try:
            Ants.run(MyBot())
        except KeyboardInterrupt:
            print("ctrl-c, leaving ...")
""")

C_BOT = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A C bot of the 2011 kind: fgets on stdin, printf on a stdout buffer so small that every
   line leaves in pieces; mode "nogo" ends its answer with "go" but no line break. */
int main(int argc, char **argv) {
    static char buffer[7], line[256];
    int rows[64], cols[64], count = 0, i;
    int nogo = argc > 1 && strcmp(argv[1], "nogo") == 0;
    setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
    while (fgets(line, sizeof line, stdin)) {
        int r, c, owner;
        if (strncmp(line, "ready", 5) == 0) {
            printf("go\n");
            fflush(stdout);
        } else if (strncmp(line, "turn", 4) == 0) {
            count = 0;
        } else if (sscanf(line, "a %d %d %d", &r, &c, &owner) == 3 && owner == 0
                   && count < 64) {
            rows[count] = r;
            cols[count++] = c;
        } else if (strncmp(line, "end", 3) == 0) {
            return 0;
        } else if (strncmp(line, "go", 2) == 0) {
            for (i = 0; i < count; i++)
                printf("o %d %d n\n", rows[i], cols[i]);
            printf(nogo ? "go" : "go\n");
            fflush(stdout);
        }
    }
    return 0;
}
"""

PIECES_BOT = textwrap.dedent("""
    import os, sys, time
    # Java on Windows / C# style: CR LF line ends, upper case, written a few bytes at a time
    ants = []
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "turn":
            ants = []
        elif words[0] == "a" and words[3] == "0":
            ants.append(words[1:3])
        elif words[0] in ("ready", "go"):
            text = "".join("O %s %s N\\r\\n" % (r, c) for r, c in ants) + "GO\\r\\n"
            data = text.encode()
            for start in range(0, len(data), 3):
                os.write(1, data[start:start + 3])
                time.sleep(0.001)
        elif words[0] == "end":
            break
""")

ROWS = ["0" + "." * 19] + ["." * 20] * 19
ROWS[10] = "." * 10 + "1" + "." * 9
MAP = "rows 20\ncols 20\nplayers 2\n" + "".join(f"m {row}\n" for row in ROWS)


@pytest.mark.slow
def test_the_2011_starter_pair_plays_a_whole_game_and_is_stopped(tmp_path: Path) -> None:
    (tmp_path / "ants.py").write_text(ANTS_PY)
    (tmp_path / "MyBot.py").write_text(MYBOT_PY)
    spec = f"{sys.executable} {tmp_path / 'MyBot.py'}"
    result = botarena.play("ants", [spec, "builtin:ants/greedy"], seed=2, turns=300)
    starter = result.players[0]
    assert starter.faults == 0 and starter.status in ("ok", "eliminated")
    assert result.end_reason in (
        "lone survivor",
        "rank stabilized",
        "turn limit reached",
        "food not being gathered",
        "ants not razing hills",
    )
    assert leftovers(tmp_path / "MyBot.py") == []  # it spun at the end: the jury stopped it


def _two_bot_game(tmp_path: Path, specs: list[str], **options) -> dict:
    ants_map = tmp_path / "two.map"
    ants_map.write_text(MAP)
    path = tmp_path / "game.replay.gz"
    botarena.play("ants", specs, seed=1, map=ants_map, replay=path, turns=5, food="none", **options)
    return export_replay(load(path))


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("cbot")
    folder.chmod(0o755)  # bots run as nobody: their folder must be theirs to read
    (folder / "bot.c").write_text(C_BOT)
    compiler = shutil.which("cc") or shutil.which("gcc")
    assert compiler, "a C compiler is needed to build the C bot"
    subprocess.run([compiler, "-O1", "-o", str(folder / "cbot"), str(folder / "bot.c")], check=True)
    return folder / "cbot"


def test_a_c_bot_whose_lines_leave_in_pieces_is_read_whole(c_bot: Path, tmp_path: Path) -> None:
    (tmp_path / "pieces.py").write_text(PIECES_BOT)
    exported = _two_bot_game(tmp_path, [str(c_bot), f"{sys.executable} {tmp_path}/pieces.py"])
    assert exported["status"] == ["survived", "survived"]
    moves = sorted((ant[4], ant[5]) for ant in exported["replaydata"]["ants"])
    assert moves == [(0, "nnnnn"), (1, "nnnnn")]  # every order of both bots ran


def test_go_without_a_line_break_is_a_timeout_as_in_2011(c_bot: Path, tmp_path: Path) -> None:
    """The 2011 engine reads whole lines (its reader thread's readline): a `go` that is never
    ended by a line break is never seen, and the bot times out at its first turn."""
    exported = _two_bot_game(tmp_path, [f"{c_bot} nogo", "builtin:ants/hold"], turntime=300)
    assert exported["status"] == ["timeout", "survived"]
    assert exported["playerturns"][0] == 1
    assert leftovers(c_bot) == []
