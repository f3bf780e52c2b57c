"""``searchkit serve``: the web app on the loopback address unless told otherwise."""

from __future__ import annotations

import socket
from typing import Annotated

import typer

from ..errors import InputError


def serve(
    host: Annotated[str, typer.Option("--host", help="address to bind (127.0.0.1: this machine only)")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port")] = 8000,
    open_browser: Annotated[bool, typer.Option("--open", help="open the page in a web browser")] = False,
) -> None:
    """Play the puzzles and watch searches in a web browser (a local web app)."""
    try:
        import uvicorn

        from .app import build_app
    except ImportError as e:
        raise InputError(f"searchkit serve needs {e.name} (pip install starlette uvicorn)") from None
    if not 0 < port < 65536:
        raise InputError(f"--port must be 1..65535 (got {port})")
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    where = "this machine only" if host in ("127.0.0.1", "localhost", "::1") else "reachable from the network"
    listener = listen(host, port)
    typer.echo(f"searchkit serve: {url} (bound to {host}: {where}); Ctrl-C stops it", err=True)
    if open_browser:
        import threading
        import webbrowser

        local = url.replace(f"//{host}:", "//127.0.0.1:") if host in ("0.0.0.0", "::") else url  # any address: this one
        threading.Timer(1.0, webbrowser.open, args=(local,)).start()
    with listener:
        uvicorn.Server(uvicorn.Config(build_app(), host=host, port=port, log_level="warning")).run(sockets=[listener])


def listen(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` (an IPv6 one when ``host`` has a colon), for the
    server to accept on. Raises `InputError` naming the host when it cannot be resolved, and the
    address and the system's reason when it cannot be bound (in use, not this machine's, a
    privileged port)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn: a restart need not wait
        sock.bind((host, port))
    except socket.gaierror as e:
        sock.close()
        raise InputError(f"--host {host!r}: no such host ({e.strerror})") from None
    except OSError as e:
        sock.close()
        raise InputError(f"cannot listen on {host} port {port}: {e.strerror or e}") from None
    return sock
