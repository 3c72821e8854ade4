"""`python -m operations.server [daphne's arguments] config.asgi:application`: daphne with a graceful
stop in place of its own signal handling (docs/operations.md, "Stopping a worker"), through Twisted's
and daphne's public API only. daphne's `--proxy-headers` is refused (operations.forwarded), and its
access log is off unless `-v 1` asks for it (operations.asgi writes one JSON line per request).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from types import FrameType
from typing import Any

from daphne.cli import CommandLineInterface
from twisted.internet import reactor as installed_reactor
from twisted.internet.interfaces import IListeningPort

log = logging.getLogger("operations.server")
reactor: Any = installed_reactor  # daphne's asyncio reactor (Twisted's typing of the module is partial)

# daphne's options that believe the client's address from whoever sends it.
PROXY_HEADER_OPTIONS = ("--proxy-headers", "--proxy-headers-host", "--proxy-headers-port")


class Stopping:
    """The worker's stop: the first signal drains, a second one (or a drain out of time) stops at once."""

    def __init__(self) -> None:
        self.draining = False
        self.clean = True  # False once stopped with work left: the process then exits without waiting on it

    def take_signals(self) -> None:
        """In place of the handlers Twisted installed as the reactor started."""
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, self.on_signal)

    def on_signal(self, signum: int, frame: FrameType | None) -> None:
        # In the main thread between two bytecodes: hand the work to the reactor.
        if self.draining:
            self.clean = False
            reactor.callFromThread(reactor.stop)
            return
        self.draining = True
        reactor.callFromThread(self.start_draining, signum)

    def start_draining(self, signum: int) -> None:
        from operations import drain

        for reader in list(reactor.getReaders()):
            if IListeningPort.providedBy(reader):
                reader.doRead()  # accept what the kernel already took on, so nothing queued is reset
                reader.stopListening()
        log.info(
            "%s: draining %d sockets and %d requests",
            signal.Signals(signum).name,
            len(drain.state.sockets),
            drain.state.requests,
        )
        asyncio.ensure_future(self.drain())

    async def drain(self) -> None:
        from django.conf import settings

        from operations import drain

        try:
            requests, sockets = await drain.drain(seconds=settings.DRAIN_SECONDS)
            if requests or sockets:
                self.clean = False
                log.warning("stopping with %d requests and %d sockets still open", requests, sockets)
            else:
                await _close_loop_connections()
                await asyncio.get_running_loop().run_in_executor(None, _close_database_connections)
                log.info("drained: stopping")
        finally:
            reactor.stop()


async def _close_loop_connections() -> None:
    from web import storage

    try:
        await storage.close()
    except Exception:  # noqa: BLE001 - as below: the process ends either way
        log.exception("could not close the event loop's database connection")


def _close_database_connections() -> None:
    """Nothing is in flight: hang up on PostgreSQL politely (the sockets' threads, then the pool)."""
    from django.db import connections

    from web.sockets.consumer import release_database_threads

    try:
        release_database_threads()
        connection = connections["default"]
        if connection.settings_dict["OPTIONS"].get("pool"):
            connection.close_pool()  # type: ignore[attr-defined] # Django 5.1's pool, not in django-stubs yet
    except Exception:  # noqa: BLE001 - the process ends either way; the server sees the sockets close
        log.exception("could not close the database connections")


def main() -> None:
    # As manage.py does: `make run` starts this module with nothing set.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    command = CommandLineInterface()
    command.parser.set_defaults(verbosity=0)  # daphne's access log only when asked for (-v 1)
    arguments = sys.argv[1:]
    refused = [arg for arg in arguments if arg.split("=", 1)[0] in PROXY_HEADER_OPTIONS]
    if refused:
        command.parser.error(
            f"{refused[0].split('=', 1)[0]} believes X-Forwarded-For from anyone who connects: leave it out "
            "and set TRUSTED_PROXIES to the balancer's address (docs/operations.md)"
        )
    stopping = Stopping()
    reactor.callWhenRunning(stopping.take_signals)  # after Twisted installed its own handlers
    command.run(arguments)
    if not stopping.clean:
        # Work was left: a database call may hold a thread a normal exit would wait for. Its
        # transaction, never acknowledged, rolls back when the connection closes.
        logging.shutdown()
        os._exit(1)


if __name__ == "__main__":
    main()
