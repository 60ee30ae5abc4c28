"""`botarena remote`: a contestant's command line against a contest site's JSON API.

As the Kaggle CLI does for its competitions: log in once (the token is kept in the user's
config, readable by the user only), then upload a bot and wait for its build log and test
verdict, list one's bots and a bot's games, download a replay (`botarena view FILE` shows it
offline) and read one's own bots' stderr. Only the standard library speaks HTTP here: the
command starts fast and needs nothing the site does not.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path
from typing import Annotated, Any

import typer

from botarena.cliparts import fail

app = typer.Typer(
    help="A contest site from the command line: login, upload, bots, games, replay, stderr",
    no_args_is_help=True,
    add_completion=False,
)

TIMEOUT_S = 30.0
"""How long one request may take."""
POLL_S = 1.0
"""How often `upload` asks how its bot is doing."""
WAITING = ("building", "testing")
"""An upload's states before its verdict."""


def config_path() -> Path:
    """Where the site's address and the token are kept: $XDG_CONFIG_HOME/botarena/remote.json
    (~/.config by default)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "botarena" / "remote.json"


def _saved() -> dict[str, str]:
    path = config_path()
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        fail("not logged in to any site: run `botarena remote login URL` first")
    except (OSError, ValueError) as exc:
        fail(f"{path}: cannot be read ({exc}); log in again with `botarena remote login URL`")
    if not isinstance(saved, dict) or not {"url", "token"} <= saved.keys():
        fail(f"{path}: not a login; log in again with `botarena remote login URL`")
    return {"url": str(saved["url"]), "token": str(saved["token"])}


def _save(url: str, token: str) -> Path:
    """Write the login readable by its user only (mode 0600 from its creation on)."""
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        json.dump({"url": url, "token": token}, out)
    os.replace(temporary, path)
    return path


def _site_url(url: str) -> str:
    parsed = urllib.parse.urlsplit(url.strip())
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        fail(f"{url!r} is not a site's address (http://HOST:PORT/ or https://...)")
    return f"{parsed.scheme}://{parsed.netloc}{parsed.path.rstrip('/')}/"


def call(
    url: str,
    path: str,
    *,
    token: str | None = None,
    body: Any = None,
    data: bytes | None = None,
    content_type: str | None = None,
) -> tuple[int, bytes]:
    """One request to the site: (status, body). A 4xx or 5xx is a user error naming the
    site's own reason; a site that cannot be reached is one too."""
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if body is not None:
        data, content_type = json.dumps(body).encode(), "application/json"
    if content_type:
        headers["Content-Type"] = content_type
    request = urllib.request.Request(
        url + path.lstrip("/"), data=data, headers=headers, method="POST" if data else "GET"
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        fail(f"{url}{path.lstrip('/')}: {exc.code} {_reason(exc.read()) or exc.reason}")
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        fail(f"cannot reach {url}: {reason}")


def _reason(raw: bytes) -> str:
    try:
        answer = json.loads(raw)
    except ValueError:
        return raw.decode("utf-8", "replace")[:200]
    return str(answer.get("error", "")) if isinstance(answer, dict) else ""


def _json(url: str, path: str, token: str | None = None, body: Any = None) -> Any:
    return json.loads(call(url, path, token=token, body=body)[1])


@app.command()
def login(
    url: Annotated[str, typer.Argument(help="the site, e.g. https://contest.example.org/")],
    user: Annotated[str, typer.Option(prompt=True, help="your user name")],
    password_file: Annotated[
        Path | None,
        typer.Option(help="read the password from this file's first line (else it is asked)"),
    ] = None,
) -> None:
    """Log in to a site; the token is kept in ~/.config/botarena/remote.json (mode 0600)."""
    site = _site_url(url)
    if password_file is not None:
        try:
            password = password_file.read_text(encoding="utf-8").splitlines()[0]
        except (OSError, IndexError, UnicodeDecodeError) as exc:
            fail(f"--password-file {password_file}: cannot read a first line ({exc})")
    else:
        password = typer.prompt("password", hide_input=True)
    answer = _json(site, "/api/login", body={"user": user, "password": password})
    path = _save(site, str(answer["token"]))
    print(f"logged in to {site} as {user} (token kept in {path})")


@app.command()
def upload(
    file: Annotated[Path, typer.Argument(help="a source file, or a .zip / .tar.gz of sources")],
    name: Annotated[str | None, typer.Option(help="the bot's name (default: yours)")] = None,
    role: Annotated[
        str | None,
        typer.Option(help="in a role game, the role a new bot plays (later versions keep it)"),
    ] = None,
    wait: Annotated[
        bool, typer.Option(help="wait for the build and the test game, and print them")
    ] = True,
    timeout: Annotated[float, typer.Option(help="seconds to wait at most")] = 600.0,
) -> None:
    """Upload a bot (or a new version of one); wait for its build log and test verdict.
    The exit status is 1 when it does not build or fails its test game."""
    saved = _saved()
    try:
        data = file.read_bytes()
    except OSError as exc:
        fail(f"{file}: cannot be read ({exc.strerror or exc})")
    body, content_type = _multipart(file.name, data, {"name": name, "role": role})
    _, raw = call(
        saved["url"], "/api/bots", token=saved["token"], data=body, content_type=content_type
    )
    accepted = json.loads(raw)
    bot, version = accepted["bot"], accepted["version"]
    print(f"{bot} v{version}: uploaded, waiting for a worker to build it")
    if not wait:
        return
    path = f"/api/bots/{urllib.parse.quote(bot)}"
    until = time.monotonic() + timeout
    answer = _json(saved["url"], path, saved["token"])
    while _version_status(answer, version) in WAITING:
        if time.monotonic() > until:
            fail(
                f"{bot} v{version} is still {_version_status(answer, version)} after {timeout:g} s"
            )
        time.sleep(POLL_S)
        answer = _json(saved["url"], path, saved["token"])
    status = _version_status(answer, version)
    if answer.get("version") == version:
        print(answer.get("build_log") or "(no build log)")
        test = answer.get("test_game") or {}
        if test:
            print(f"test game {test.get('id')}: {test.get('result')}")
    print(
        f"{bot} v{version}: {status}" + (f" ({answer['reason']})" if answer.get("reason") else "")
    )
    if status not in ("active", "retired"):
        raise typer.Exit(1)


def _version_status(bot: dict[str, Any], version: int) -> str:
    for entry in bot.get("versions") or []:
        if entry.get("version") == version:
            return str(entry.get("status"))
    return str(bot.get("status"))


def _multipart(filename: str, data: bytes, fields: dict[str, str | None]) -> tuple[bytes, str]:
    """A multipart/form-data body of the field `file` and the text `fields` given (`name`,
    `role`), and its content type."""
    boundary = uuid.uuid4().hex
    disposition = f'Content-Disposition: form-data; name="file"; filename="{_quoted(filename)}"'
    head = f"--{boundary}\r\n{disposition}\r\nContent-Type: application/octet-stream\r\n\r\n"
    body = head.encode() + data + b"\r\n"
    for key, value in fields.items():
        if value:
            field = f'Content-Disposition: form-data; name="{key}"'
            body += f"--{boundary}\r\n{field}\r\n\r\n{value}\r\n".encode()
    return body + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def _quoted(filename: str) -> str:
    return filename.replace("\\", "_").replace('"', "_").replace("\r", "_").replace("\n", "_")


@app.command()
def bots() -> None:
    """Your bots: the version playing, its rating, rank and games, the latest upload."""
    saved = _saved()
    me = _json(saved["url"], "/api/me", saved["token"])
    if not me["bots"]:
        print(f"{me['user']} has no bot yet: `botarena remote upload FILE`")
    for bot in me["bots"]:
        playing = bot.get("active_version")
        rating = "" if bot.get("rating") is None else f" rating {bot['rating']:.2f}"
        rank = "" if bot.get("rank") is None else f" rank {bot['rank']}"
        print(
            f"{bot['bot']}: playing {'v' + str(playing) if playing else 'no version'}"
            f"{rating}{rank}, {bot['games']} games; latest upload v{bot['version']}"
            f" {bot['status']}"
        )


@app.command()
def games(
    bot: Annotated[str, typer.Argument(help="the bot")],
    limit: Annotated[int, typer.Option(help="how many (1 to 100)")] = 20,
    before: Annotated[int | None, typer.Option(help="only games older than this id")] = None,
    opponent: Annotated[str | None, typer.Option(help="only games against this bot")] = None,
) -> None:
    """A bot's games, newest first, from its side."""
    saved = _saved()
    query = {"limit": str(limit)}
    if before is not None:
        query["before"] = str(before)
    if opponent:
        query["opponent"] = opponent
    path = f"/api/bots/{urllib.parse.quote(bot)}/games?{urllib.parse.urlencode(query)}"
    page = _json(saved["url"], path, saved["token"])
    for game in page["games"]:
        print(
            f"{game['id']}\t{game['kind']}\t{game['result'] or '-'}\tplace {game['place']}"
            f"\tscore {game['score']}\tagainst {', '.join(game['opponents'])}"
        )
    if page["next"] is not None:
        print(f"(older: --before {page['next']})")


@app.command()
def replay(
    game: Annotated[int, typer.Argument(help="the game's id")],
    output: Annotated[Path, typer.Option("-o", "--output", help="the replay file to write")],
) -> None:
    """Download a game's replay (then `botarena view FILE` shows it offline)."""
    saved = _saved()
    _, raw = call(saved["url"], f"/api/games/{game}/replay", token=saved["token"])
    try:
        output.write_bytes(raw)
    except OSError as exc:
        fail(f"-o {output}: cannot write ({exc.strerror or exc})")
    print(f"game {game}: replay written to {output} (botarena view {output})")


@app.command()
def stderr(game: Annotated[int, typer.Argument(help="the game's id")]) -> None:
    """What your bots wrote on stderr in a game (yours only: others' are not shown)."""
    saved = _saved()
    answer = _json(saved["url"], f"/api/games/{game}", saved["token"])
    shown = [seat for seat in answer["seats"] if "stderr" in seat]
    if not shown:
        fail(f"game {game} has no bot of yours: only your own bots' stderr is shown")
    for seat in shown:
        print(f"== seat {seat['seat']}: {seat['bot']} ({seat['version']})")
        print(seat["stderr"], end="" if seat["stderr"].endswith("\n") else "\n")
