"""Games on an existing Dask distributed cluster: the runner's executor for more machines.

The runner stays where the store is and remains its only writer; the cluster's workers only
play games (`worker.play_game`, plain dict in, plain dict out) and hand the results back.
Every worker needs botarena installed and the bots' files at the same paths as the runner.
Start workers with one thread each (`dask worker ADDR --nthreads 1 --nworkers N`): a game
is a Python referee loop, so threads of one worker process would share one core.
"""

from __future__ import annotations

import concurrent.futures as cf
from typing import Any

CONNECT_TIMEOUT_S = 10.0
"""How long `--dask` waits for the scheduler (its greeting, then its first worker) by
default; `tournament run --dask-timeout` sets it."""


class ClusterError(RuntimeError):
    """The cluster cannot be used (unreachable, no workers); the message says which."""


GREETING_MAX_BYTES = 1 << 20
"""A Dask scheduler's first message (its handshake) is a few hundred bytes; what a port
sends first that claims more is some other protocol."""


def _probe(address: str, timeout_s: float) -> None:
    """Fail in one line, within `timeout_s`, unless a Dask scheduler answers at `address`:
    a refused address fails at once (Dask itself retries until its timeout), and a port
    that accepts but says nothing (a silent server, an HTTP server waiting for a request)
    or says something else fails after `timeout_s`. A scheduler greets each connection
    first, with its handshake framed by an 8-byte little-endian length; Dask's client
    would wait for that greeting with no timeout at all."""
    import socket
    import struct
    import time
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(address if "://" in address else f"tcp://{address}")
        port = parts.port or 8786
    except ValueError:  # a bad IPv6 literal, a port that is no number or out of range
        raise ClusterError(f"--dask {address}: not a scheduler address (tcp://HOST:PORT)") from None
    if parts.scheme not in ("tcp", "tls", "ws", "wss") or not parts.hostname:
        raise ClusterError(f"--dask {address}: not a scheduler address (tcp://HOST:PORT)")
    if parts.scheme != "tcp":
        return
    deadline = time.monotonic() + timeout_s
    try:
        with socket.create_connection((parts.hostname, port), timeout=timeout_s) as connection:
            connection.settimeout(max(0.01, deadline - time.monotonic()))
            head = b""
            while len(head) < 8:
                piece = connection.recv(8 - len(head))
                if not piece:
                    break
                head += piece
    except TimeoutError:
        raise ClusterError(
            f"--dask {address}: waited {timeout_s:g} s for the scheduler's greeting and got"
            " none (is it a Dask scheduler? --dask-timeout waits longer)"
        ) from None
    except (OSError, ValueError) as exc:
        raise ClusterError(f"--dask {address}: cannot reach the scheduler ({exc})") from None
    if len(head) < 8:
        raise ClusterError(f"--dask {address}: the port closed the connection: not a scheduler")
    (length,) = struct.unpack("<Q", head)
    if not 0 < length <= GREETING_MAX_BYTES:
        raise ClusterError(
            f"--dask {address}: the port answers another protocol ({head!r}...), not a"
            " Dask scheduler's"
        )


class DaskExecutor:
    """Submits each game to the cluster and hands back a concurrent.futures.Future, so the
    runner treats it as it treats the local pool. `slots` is the cluster's worker threads."""

    def __init__(self, address: str, connect_timeout_s: float = CONNECT_TIMEOUT_S) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise ClusterError(
                "--dask needs Dask distributed: pip install 'botarena[cluster]'"
            ) from None
        _probe(address, connect_timeout_s)
        try:
            self.client = Client(  # type: ignore[no-untyped-call]  # distributed has no hints here
                address, timeout=f"{connect_timeout_s}s", set_as_default=False
            )
        except Exception as exc:  # what a port that only looked like a scheduler sent
            raise ClusterError(
                f"--dask {address}: cannot reach the scheduler"
                f" ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})"
            ) from None
        try:
            self.client.wait_for_workers(1, timeout=connect_timeout_s)
        except (TimeoutError, OSError):
            self.client.close()  # type: ignore[no-untyped-call]  # untyped in distributed
            raise ClusterError(f"--dask {address}: the scheduler has no workers") from None
        workers = self.client.scheduler_info()["workers"].values()
        self.slots = max(1, sum(worker["nthreads"] for worker in workers))
        from botarena.tournament.daskplugin import QuietWorkers, quiet

        self.client.register_plugin(QuietWorkers(), name=QuietWorkers.name)
        self.client.run(quiet)  # the workers there now: the plugin may have been in place

    def submit(self, job: dict[str, Any]) -> cf.Future[Any]:
        from botarena.tournament.worker import play_game

        done: cf.Future[Any] = cf.Future[Any]()
        remote = self.client.submit(play_game, job, pure=False)

        def settle(finished: Any) -> None:
            try:
                done.set_result(finished.result())
            except BaseException as exc:  # a lost worker, a cancelled task
                done.set_result({"error": f"cluster: {type(exc).__name__}: {exc}"})

        remote.add_done_callback(settle)  # type: ignore[no-untyped-call]  # untyped in distributed
        return done

    def shutdown(self) -> None:
        self.client.close()  # type: ignore[no-untyped-call]  # untyped in distributed
