"""`flask --app tracker serve`: bring the database up to date, then serve the app for real."""

from __future__ import annotations

import contextvars
import errno
import gc
import ipaddress
import os
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from flask import Flask
from flask.cli import ScriptInfo, pass_script_info
from flask_migrate import upgrade

from tracker.backup import BackupError, BackupSchedule, parse_keep, sqlite_file
from tracker.extensions import db
from tracker.services import reviewer
from tracker.settings import reach_database

DEFAULT_PORT = 8000


def default_workers() -> int:
    """Two to four: enough for a few phones, few enough that SQLite writers rarely wait."""
    return min(4, max(2, os.cpu_count() or 2))


# Threads per worker process that run the app. granian reads each request whole (and writes
# each answer) in its own Rust event loop, so a slow phone or a stalled connection holds no
# thread at all; the threads are there for requests that wait on the database, and with
# several workers a heavy request (an import) leaves the other processes free for turns.
# Two: one can wait on the database while the other answers. More only add contention for the
# GIL (a turn cost 1.03 ms of CPU with 1 or 2 threads, 1.15 ms with 5; docs/benchmarks.md).
DEFAULT_THREADS = 2
# gunicorn (kept for the benchmarks that compare servers): how long an idle kept-alive
# connection stays open. granian keeps connections alive until the client closes them.
KEEPALIVE_SECONDS = 5
# One line a request: who (the connecting client's address: behind a proxy, the proxy's),
# when, method, path, status, milliseconds, user agent. Never the query string, the referrer
# (a URL with a query) or any header that could carry a secret (Authorization, Cookie).
ACCESS_LOG_FORMAT = (
    '%(addr)s [%(time)s] "%(method)s %(path)s %(protocol)s" %(status)d %(dt_ms).1fms '
    '"%(header{user-agent})s"'
)
# gunicorn's atoms for the same line (bench/serving.py and bench/turns.py still measure it).
GUNICORN_ACCESS_LOG_FORMAT = '%(h)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(B)s %(M)sms "%(a)s"'


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
    help=f"Worker processes (granian; threads with waitress on Windows). "
    f"[default: {default_workers()}]",
)
@click.option(
    "--threads",
    type=click.IntRange(min=1),
    default=DEFAULT_THREADS,
    show_default=True,
    help="Threads per worker process that run the app.",
)
@click.option(
    "--access-log/--no-access-log",
    default=True,
    show_default=True,
    help="Log one line per request to standard output.",
)
@pass_script_info
def serve_command(
    info: ScriptInfo,
    host: str,
    port: int,
    workers: int | None,
    threads: int,
    access_log: bool,
) -> None:
    """Upgrade the database, then serve Kości with a production server."""
    app = info.load_app()
    # Before the migrations: a second serve (an older version left running) must not upgrade
    # the database under the first one either.
    check_port_free(host, port)
    try:
        schedule = backup_schedule(app)
    except BackupError as exc:
        raise click.ClickException(str(exc)) from exc
    with app.app_context():
        # A database that does not answer (a wrong password, a server down, a folder that is
        # not there) is one sentence, not the migration's traceback.
        reach_database(db.engine)
        upgrade()
        # Forked workers must not share the connections the migration opened.
        for engine in db.engines.values():
            engine.dispose()
    click.echo(startup_message(host, port, int(app.config.get("KOSCI_PROXY_HOPS") or 0)))
    if schedule is not None:
        click.echo(
            f"Automatyczne kopie bazy: teraz i co 24 h do {schedule.directory} "
            f"(zostaje {schedule.keep} najnowszych)."
        )
    run_server(app, host, port, workers or default_workers(), threads, access_log=access_log)


def check_port_free(host: str, port: int) -> None:
    """A ClickException, in Polish, when `host:port` cannot be listened on, above all when
    another server listens there already.

    granian's workers on Linux each listen on the port with SO_REUSEPORT, which lets any other
    process of the same user that asks the same listen there too: a second `serve` (started
    twice by mistake, or an old version still running) would start without a word, and the
    system would hand each connection to one or the other, each with its own database. A
    socket that does not ask for SO_REUSEPORT cannot bind beside one that listens, so this
    one tries first and lets go."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        if sys.platform != "win32":  # there SO_REUSEADDR would let it bind beside a listener
            # Connections of a server just stopped (TIME_WAIT) do not make the port taken.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                free = _free_port_near(host, port)
                other = f", np. --port {free}" if free else ""
                raise click.ClickException(
                    f"Port {port} jest już zajęty: może Kości (albo inny program) już na nim "
                    f"działają. Zatrzymaj tamten serwer albo wybierz inny port{other}."
                ) from exc
            raise click.ClickException(
                f"Nie można nasłuchiwać na {host}:{port}: {exc.strerror or exc}."
            ) from exc


def _free_port_near(host: str, port: int) -> int | None:
    """The first port after `port` (of the next 20) that nothing listens on, to suggest."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    for candidate in range(port + 1, min(port + 21, 65536)):
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            try:
                probe.bind((host, candidate))
            except OSError:
                continue
            return candidate
    return None


def run_server(
    app: Flask,
    host: str,
    port: int,
    workers: int,
    threads: int = DEFAULT_THREADS,
    *,
    access_log: bool = False,
) -> None:
    """Serve `app` until interrupted: granian on POSIX, waitress on Windows (where granian
    serves one worker process only).

    The Flask CLI runs every command inside an app context of its own, and a server started
    from there would hand it on: the workers are forked from this thread, and every request
    of a worker would then find that context already pushed and share its `g` (the signed-in
    account, the CSRF token) with every other request. The server therefore runs in an empty
    context, like a server started outside the CLI: each request pushes its own.
    """
    contextvars.Context().run(_run_server, app, host, port, workers, threads, access_log)


def settle_heap() -> None:
    """Move what the app built at start (modules, the app, its caches: some 110,000 objects)
    out of the garbage collector's sight, as the `gc` docs advise before forking workers.

    A full collection walks every tracked object: with those it cost about 60 ms, and a
    statistics page's result rows set one off in two requests out of five (about 25 ms a
    request on average, docs/benchmarks.md "Statistics"); without them, about 1 ms. Garbage
    is collected first, so nothing unreachable is kept for good."""
    gc.collect()
    gc.freeze()


def _run_server(
    app: Flask, host: str, port: int, workers: int, threads: int, access_log: bool
) -> None:
    schedule = backup_schedule(app)
    settle_heap()  # before the workers are forked: each inherits it
    if sys.platform == "win32":
        from waitress import serve

        if schedule is not None:
            schedule.start()
        reviewer.review_missing(app)  # in a thread: the games an import left without reviews
        # One process; waitress reads every request whole before a thread takes it, so a
        # stalled client holds no thread.
        serve(app, host=host, port=port, threads=max(workers * threads, 4))
    else:
        # The backups run in a thread of the main process, started before the workers are
        # forked: one thread however many workers, and none in the workers. The reviews an
        # import left undone are looked for as each worker starts, in a thread of the worker
        # (one worker at a time does the work): the reviewer writes through the writers' queue
        # (a thread lock, a flock), and a worker forked while the main process held it would
        # hold it for good.
        _serve_with_granian(
            app,
            host,
            port,
            workers,
            threads,
            access_log=access_log,
            on_startup=None if schedule is None else schedule.start,
            on_worker_start=lambda: reviewer.review_missing(app),
        )


def _serve_with_granian(
    app: Flask,
    host: str,
    port: int,
    workers: int,
    threads: int,
    *,
    access_log: bool = False,
    on_startup: Callable[[], object] | None = None,
    on_worker_start: Callable[[], object] | None = None,
) -> None:
    """granian with `serve`'s settings: HTTP/1.1 with kept-alive connections, the WSGI app run
    by `threads` threads in each of `workers` forked processes.

    granian parses HTTP, keeps connections and buffers bodies in Rust, outside the GIL: a
    request costs the server a fraction of what gunicorn's Python loop costs, and a client
    that stalls holds no app thread. Forwarded headers are not read by granian: the app
    believes them only when `KOSCI_PROXY_HOPS` says a proxy sets them (werkzeug's ProxyFix,
    in `create_app`). `on_startup` runs in the main process before the workers are forked,
    `on_worker_start` in each worker process as it starts (also one started again)."""
    from granian.constants import HTTPModes, Interfaces
    from granian.server import Server

    server = Server(
        "tracker",  # a label only: the workers get `app` itself through the loader below
        address=host,
        port=port,
        interface=Interfaces.WSGI,
        workers=workers,
        blocking_threads=threads,
        http=HTTPModes.http1,
        websockets=False,
        log_access=access_log,
        log_access_format=ACCESS_LOG_FORMAT,
        # A worker that dies (killed for memory, a crash in a library) is started again; left
        # to granian's default, the whole server shut down and every phone got "connection
        # refused" until someone restarted it. A worker that dies again within seconds of its
        # restart still stops the server (granian's crash-loop guard).
        respawn_failed_workers=True,
    )
    if on_startup is not None:
        server.on_startup(on_startup)

    def load(*_args: object, **_kwargs: object) -> Flask:
        if on_worker_start is not None:
            on_worker_start()
        return app

    # Workers are forked (Linux, macOS with fork): the loader, called in each, hands them the
    # app built here.
    server.serve(target_loader=load, wrap_loader=False)


def backup_schedule(app: Flask) -> BackupSchedule | None:
    """The automatic daily backups `KOSCI_BACKUP_DIR` asks for (keeping the newest
    `KOSCI_BACKUP_KEEP`), or None when it is not set. BackupError for settings that cannot
    work: a count that is not one, a database that is not an SQLite file (PostgreSQL: pg_dump)."""
    directory = app.config.get("KOSCI_BACKUP_DIR")
    if not directory:
        return None
    keep = parse_keep(app.config.get("KOSCI_BACKUP_KEEP"))
    with app.app_context():
        url = db.engine.url
    database = sqlite_file(url)
    if database is None:
        raise BackupError(
            "KOSCI_BACKUP_DIR: automatyczne kopie robi się tylko z pliku SQLite. "
            "Kopię bazy PostgreSQL zrób narzędziem pg_dump (README, „Backups”)."
        )
    return BackupSchedule(database, Path(directory).resolve(), keep)


def _serve_with_gunicorn(
    app: Flask,
    host: str,
    port: int,
    workers: int,
    threads: int,
    worker_class: str = "gthread",
    *,
    access_log: bool = False,
    when_ready: Callable[[Any], object] | None = None,
) -> None:
    """gunicorn with the settings `serve` used before granian, for the benchmarks that compare
    the servers (bench/serving.py, bench/turns.py --server gunicorn). `when_ready` is
    gunicorn's server hook, called in the master process once it listens.

    Forwarded headers: the app believes them only when `KOSCI_PROXY_HOPS` says a proxy sets
    them (werkzeug's ProxyFix, in `create_app`), and gunicorn is told the same. Left to its
    default, gunicorn would take X-Forwarded-Proto from any local process (127.0.0.1) even with
    no proxy in front; with a proxy, ProxyFix already decides which values to believe."""
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
            behind_proxy = int(app.config.get("KOSCI_PROXY_HOPS") or 0) > 0
            self.cfg.set("forwarded_allow_ips", "*" if behind_proxy else "")
            self.cfg.set("forwarder_headers", "")  # SCRIPT_NAME, PATH_INFO: never from a header
            if access_log:
                self.cfg.set("accesslog", "-")  # standard output
                self.cfg.set("access_log_format", GUNICORN_ACCESS_LOG_FORMAT)
            if when_ready is not None:
                self.cfg.set("when_ready", when_ready)
            # gunicorn >= 25.1 opens a control socket at one path per user: two instances
            # would fight over it, and nothing here uses it.
            if "control_socket_disable" in self.cfg.settings:
                self.cfg.set("control_socket_disable", True)

        # types-gunicorn types a WSGI app's start_response without PEP 3333's exc_info and
        # write(), so no WSGI app that follows the PEP (Flask's __call__) fits its `load`.
        def load(self) -> Flask:  # type: ignore[override]
            return app

    Server().run()


def startup_message(host: str, port: int, proxy_hops: int = 0) -> str:
    """Where to open the app: on this computer, and from a phone on the same Wi-Fi; behind a
    proxy (`KOSCI_PROXY_HOPS`), the address the proxy reaches it at, and a word if the app
    listens where a phone could reach it past the proxy."""
    if proxy_hops:
        return _behind_a_proxy(host, port, proxy_hops)
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


def _behind_a_proxy(host: str, port: int, hops: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    lines = [
        f"Kości działa za serwerem proxy (KOSCI_PROXY_HOPS={hops}): telefony otwierają adres, "
        "pod którym proxy wystawia aplikację.",
        f"  proxy łączy się z: http://{shown}:{port}",
    ]
    if not _is_loopback(host):
        lines.append(
            "  Uwaga: aplikacja słucha nie tylko na tym komputerze, więc można ją otworzyć z "
            "pominięciem proxy i podać sobie dowolny adres w X-Forwarded-For. Jeśli proxy "
            "działa na tym komputerze, uruchom z --host 127.0.0.1."
        )
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
