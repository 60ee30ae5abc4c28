"""The hostile-bot zoo of tests/test_hostile.py: misbehaving programs in Python and C.

Every Python bot is HARNESS (which plays any of the four games correctly, as the maze
master in Labyrinth) followed by its own body (`busy_bot` is a well-behaved one, slow on
purpose); every C bot gets the game as its first argument, says `READY` in Falldown, reads
its first request, then misbehaves. Children a bot starts carry MARK in their command line,
so that the test finds any left behind.
"""

from __future__ import annotations

HARNESS = r'''
import json, os, signal, socket, subprocess, sys, threading, time
GAME, MARK = sys.argv[1], sys.argv[0]


def readline():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line


def request():
    """Read one request; the correct reply to it."""
    if GAME == "amazes":
        first = readline().strip()
        if first == "Quit":
            sys.exit(0)
        for _ in range(5 if first == "Start" else 4):
            readline()
        return "T"
    if GAME == "falldown":
        while readline().strip() != "EOD":
            pass
        return "N"
    if GAME == "ants":
        while True:
            line = readline().strip()
            if line == "end":
                sys.exit(0)
            if line in ("go", "ready"):
                return "go"
    message = json.loads(readline())
    if message["call"] == "generateMaze":
        n = message["args"][0]
        return json.dumps([[{"east": False, "south": False}] * n] * n)
    return '"ready"' if message["call"] == "setup" else "null"


def answer(text):
    print(text, flush=True)


def prelude():
    if GAME == "falldown":
        answer("READY")


def play(turns):
    for _ in range(turns):
        answer(request())


def finish():
    while True:
        answer(request())


def sleeper():
    """argv of a child that sleeps (cheaply: a shell), marked as this bot's."""
    return ["/bin/sh", "-c", "sleep 600; :", MARK]
'''


def busy_bot(seconds: float) -> str:
    """A bot for any game (its argument) that burns `seconds` of CPU before each reply to a
    turn: not hostile, a bot that uses its time (the CPU clock's tests and bench)."""
    return (
        HARNESS
        + f"""
def burn(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


prelude()
if GAME == "ants":
    answer(request())  # its "ready" handshake, not a turn
while True:
    reply = request()
    burn({seconds!r})
    answer(reply)
"""
    )


PYTHON_BOTS: dict[str, str] = {
    "crash_start": "sys.exit(3)",
    "crash_mid": "prelude(); play(2); raise RuntimeError('mid-game')",
    "exit_early": "prelude(); play(2); sys.exit(0)",
    "hang_start": "time.sleep(600)",
    "hang_mid": "prelude(); play(2); request(); time.sleep(600)",
    "sleep_past_budget": "prelude(); play(1); reply = request(); time.sleep(5); answer(reply)"
    "; finish()",
    "late_reply": "prelude(); play(1); reply = request(); time.sleep(2.5); answer(reply); finish()",
    "flood_stdout": "prelude(); play(1); request()\n"
    "line = b'x' * 999 + b'\\n'\n"
    "for _ in range(100_000):\n    sys.stdout.buffer.write(line)\n"
    "sys.stdout.flush(); finish()",
    "flood_stderr": "def flood():\n    block = 'e' * 1_000_000\n"
    "    for _ in range(100):\n        sys.stderr.write(block)\n"
    "threading.Thread(target=flood, daemon=True).start()\n"
    "prelude(); finish()",
    "no_newline": "prelude(); play(1); sys.stdout.write(request()); sys.stdout.flush()"
    "; time.sleep(600)",
    "line_1gb": "prelude(); play(1); request()\nblock = b'x' * (1 << 20)\n"
    "for _ in range(1024):\n    sys.stdout.buffer.write(block)\n"
    "sys.stdout.flush(); finish()",
    "binary_garbage": "prelude(); play(1); request()\n"
    "sys.stdout.buffer.write(bytes(range(256)) * 64 + b'\\n')\n"
    "sys.stdout.flush(); time.sleep(600)",
    "invalid_utf8": "prelude(); play(1); reply = request()\n"
    "sys.stdout.buffer.write(b'\\xff\\xfe\\xc3' + reply.encode() + b'\\n')\n"
    "sys.stdout.flush(); finish()",
    "close_stdout": "prelude(); play(1); request(); os.close(1); time.sleep(600)",
    "close_stdin": "prelude(); play(1); os.close(0); time.sleep(600)",
    "ignores_sigterm": "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
    "prelude()\ntry:\n    finish()\nfinally:\n"
    "    while True:\n        time.sleep(1)",
    "double_fork": "prelude(); play(1)\n"
    "if os.fork() == 0:\n    try:\n        os.setsid()\n    except OSError:\n"
    "        pass\n    if os.fork() == 0:\n"
    "        os.execv('/bin/sh', sleeper())\n"
    "    os._exit(0)\n"
    "os.wait(); finish()",
    "setsid_child": "prelude(); play(1)\n"
    "if os.fork() == 0:\n    try:\n        os.setsid()\n"
    "    except OSError:\n        pass\n    os.execv('/bin/sh', sleeper())\n"
    "sys.exit(4)",
    "changes_pgid": "if os.fork() == 0:\n    try:\n        os.setsid()\n"
    "    except OSError:\n        pass\n    while True:\n        pass\n"
    "prelude(); finish()",
    "alloc_10gb": "prelude(); play(1); request()\nheld = []\n"
    "for _ in range(160):\n    held.append(b'm' * (64 << 20))\nfinish()",
    "fork_bomb_py": "prelude(); play(1); request()\n"
    "while True:\n    try:\n        os.fork()\n    except OSError:\n"
    "        pass",
    "spin_between_turns": "def spin():\n    while True:\n        pass\n"
    "threading.Thread(target=spin, daemon=True).start()\n"
    "prelude(); finish()",
}
"""Python bots that need nothing from the test: name -> body after HARNESS."""

SPY_BODY = r'''
def peek():
    """Whatever the sandbox lets it see, reach or write: every True is a breach."""
    found = []
    for path in SECRETS:
        try:
            found.append(open(path).read())
        except OSError:
            pass
    try:
        with socket.create_connection(("127.0.0.1", PORT), timeout=1) as sock:
            sock.sendall(b"breach")
            found.append("network")
    except OSError:
        pass
    for folder in WRITE_TO + [os.environ.get("HOME", "/tmp")]:
        try:
            with open(os.path.join(folder, TOKEN), "w") as handle:
                handle.write("breach")
        except OSError:
            pass
    return found


prelude()
breaches = peek()
reply = request()
answer("breach: " + repr(breaches) if breaches else reply)
finish()
'''
"""The spy (reads others' and the jury's files, connects to the test's listener, writes to
/tmp, /var/tmp, $HOME and the game's folder): it plays correctly only if all of it failed
(its private /tmp aside). The test prepends SECRETS, PORT, WRITE_TO and TOKEN."""

MAZE3 = "[" + ",".join(["[" + ",".join(['{"east":false,"south":false}'] * 3) + "]"] * 3) + "]"
"""An open 3 x 3 maze: the maze master's valid reply to generateMaze(3)."""

C_PRELUDE = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static char line[1 << 16];
static void prelude(const char *game) {
    if (strcmp(game, "falldown") == 0) { fputs("READY\n", stdout); fflush(stdout); }
    if (!fgets(line, sizeof line, stdin)) exit(0);
    if (strcmp(game, "labyrinth") == 0) {  /* setup, then the first real call */
        fputs("\"ready\"\n", stdout); fflush(stdout);
        if (!fgets(line, sizeof line, stdin)) exit(0);
    }
}
"""

C_BOTS: dict[str, str] = {
    "segv_start": "int main(int c, char **v) { volatile int *p = 0; *p = 1; return 0; }",
    "fork_bomb": "int main(int c, char **v) { prelude(v[1]); for (;;) fork(); }",
    "alloc_10gb_c": "int main(int c, char **v) { prelude(v[1]);\n"
    "  for (int i = 0; i < 160; i++) { char *p = malloc(64 << 20);"
    " if (p) memset(p, 1, 64 << 20); }\n  pause(); return 0; }",
    "spin_child": "int main(int c, char **v) { prelude(v[1]);\n"
    "  if (fork() == 0) for (;;) {}\n  pause(); return 0; }",
    "threads_cpu": "#include <pthread.h>\n#include <time.h>\n"
    "static void *spin(void *a) { for (;;) {} return a; }\n"
    "int main(int c, char **v) { pthread_t t[4]; prelude(v[1]);\n"
    "  for (int i = 0; i < 4; i++) pthread_create(&t[i], 0, spin, 0);\n"
    "  struct timespec pause_ = {0, 100000000}; nanosleep(&pause_, 0);\n"
    "  fputs(MAZE3, stdout); fflush(stdout); pause(); return 0; }",
    "flood_c": "int main(int c, char **v) { prelude(v[1]);\n"
    "  static char buf[1 << 16]; memset(buf, 'y', sizeof buf);\n"
    "  for (;;) fwrite(buf, 1, sizeof buf, stdout); }",
}
"""C bots: name -> source after C_PRELUDE (`prelude(game)` reaches the first request;
threads_cpu answers generateMaze(3) after 100 ms of four spinning threads)."""


def c_source(name: str) -> str:
    """The whole C program of bot `name`."""
    maze = MAZE3.replace('"', '\\"')
    return f'#define MAZE3 "{maze}\\n"\n' + C_PRELUDE + C_BOTS[name] + "\n"
