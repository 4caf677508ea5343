"""`flask --app tracker serve`: bring the database up to date, then serve the app for real."""

from __future__ import annotations

import contextvars
import ipaddress
import os
import socket
import sys

import click
from flask import Flask
from flask.cli import ScriptInfo, pass_script_info
from flask_migrate import upgrade

from tracker.extensions import db

DEFAULT_PORT = 8000


def default_workers() -> int:
    """Two to four: enough for a few phones, few enough that SQLite writers rarely wait."""
    return min(4, max(2, os.cpu_count() or 2))


# Threads per worker process. A thread waits on a slow phone (or a stalled connection) without
# holding up the others, so a few stuck clients cannot stop the table; with several workers a
# heavy request (an import) leaves the other processes free for turns. Measured against sync
# workers in docs/benchmarks.md ("Serving model").
DEFAULT_THREADS = 8
# How long an idle kept-alive connection stays open: a phone at the table sends its next
# request within seconds, and reuses the connection instead of paying a new one.
KEEPALIVE_SECONDS = 5


@click.command("serve")
@click.option(
    "--host",
    default="0.0.0.0",
    show_default=True,
    help="Address to listen on; 0.0.0.0 lets phones on the same network connect.",
)
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(1, 65535))
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help=f"Worker processes (gunicorn; threads with waitress on Windows). "
    f"[default: {default_workers()}]",
)
@click.option(
    "--threads",
    type=click.IntRange(min=1),
    default=DEFAULT_THREADS,
    show_default=True,
    help="Threads per worker process (gunicorn).",
)
@pass_script_info
def serve_command(
    info: ScriptInfo, host: str, port: int, workers: int | None, threads: int
) -> None:
    """Upgrade the database, then serve Kości with a production server."""
    app = info.load_app()
    with app.app_context():
        upgrade()
        # Forked workers must not share the connections the migration opened.
        for engine in db.engines.values():
            engine.dispose()
    click.echo(startup_message(host, port))
    run_server(app, host, port, workers or default_workers(), threads)


def run_server(
    app: Flask, host: str, port: int, workers: int, threads: int = DEFAULT_THREADS
) -> None:
    """Serve `app` until interrupted: gunicorn on POSIX, waitress on Windows.

    The Flask CLI runs every command inside an app context of its own, and a server started
    from there would hand it on: gunicorn forks its workers from this thread, and every request
    of a worker would then find that context already pushed and share its `g` (the signed-in
    account, the CSRF token) with every other request. The server therefore runs in an empty
    context, like a server started outside the CLI: each request pushes its own.
    """
    contextvars.Context().run(_run_server, app, host, port, workers, threads)


def _run_server(app: Flask, host: str, port: int, workers: int, threads: int) -> None:
    if sys.platform == "win32":
        from waitress import serve

        # One process; waitress reads every request whole before a thread takes it, so a
        # stalled client holds no thread.
        serve(app, host=host, port=port, threads=max(workers * threads, 4))
    else:
        _serve_with_gunicorn(app, host, port, workers, threads)


def _serve_with_gunicorn(
    app: Flask, host: str, port: int, workers: int, threads: int, worker_class: str = "gthread"
) -> None:
    """gunicorn with `serve`'s settings; `worker_class` is there for bench/serving.py, which
    measures the alternatives."""
    from gunicorn.app.base import BaseApplication

    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"

    class Server(BaseApplication):
        def load_config(self) -> None:
            self.cfg.set("bind", [bind])
            self.cfg.set("workers", workers)
            self.cfg.set("worker_class", worker_class)
            self.cfg.set("threads", threads)
            self.cfg.set("keepalive", KEEPALIVE_SECONDS)
            self.cfg.set("proc_name", "kosci")
            # gunicorn >= 25.1 opens a control socket at one path per user: two instances
            # would fight over it, and nothing here uses it.
            if "control_socket_disable" in self.cfg.settings:
                self.cfg.set("control_socket_disable", True)

        def load(self) -> Flask:
            return app

    Server().run()


def startup_message(host: str, port: int) -> str:
    """Where to open the app: on this computer, and from a phone on the same Wi-Fi."""
    lines = ["Kości działa. Otwórz w przeglądarce:"]
    if host in ("0.0.0.0", "::", ""):
        lines.append(f"  na tym komputerze:                 http://localhost:{port}")
        address = lan_address()
        if address:
            lines.append(f"  na telefonie (ta sama sieć Wi-Fi): http://{address}:{port}")
        else:
            lines.append(
                "  na telefonie: adres IP tego komputera w sieci Wi-Fi (nie udało się go ustalić),"
                f" port {port}"
            )
    elif _is_loopback(host):
        lines.append(f"  tylko na tym komputerze: http://localhost:{port}")
        lines.append("  (telefony się nie połączą; uruchom z --host 0.0.0.0)")
    else:
        shown = f"[{host}]" if ":" in host else host
        lines.append(f"  http://{shown}:{port}")
    lines.append("Zatrzymanie: Ctrl+C.")
    return "\n".join(lines)


def lan_address() -> str | None:
    """This computer's IPv4 address on the local network, or None if it cannot tell.

    Connecting a UDP socket sends nothing: it only asks the OS which interface would route to
    a private address, which works without internet access.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.254.254.254", 1))
            address = probe.getsockname()[0]
        if _is_usable(address):
            return address
    except OSError:
        pass
    try:
        address = socket.gethostbyname(socket.gethostname())
    except OSError:
        return None
    return address if _is_usable(address) else None


def _is_usable(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
