"""`python -m operations.server [daphne's arguments] config.asgi:application`: daphne with a graceful stop.

Plain daphne stops on SIGTERM by cancelling everything at once: an action being stored loses its
answer and every socket drops without a word. Here SIGTERM (or SIGINT) starts a drain:

1. the worker stops listening, so the balancer's next attempt to connect here is refused and it
   tries another worker (connections already accepted are served);
2. requests in flight are answered; each socket finishes the message it was handling and is
   closed with CLOSE_RESTARTING (4012), on which the browser reconnects at once, through the
   balancer, to another worker (operations.drain);
3. when nothing is left, daphne stops as it always does (exit status 0).

After DRAIN_SECONDS, or on a second signal, it stops at once with what is left (exit status 1).
daphne's `--proxy-headers` is refused: the client's address is taken from X-Forwarded-For only
when a balancer in TRUSTED_PROXIES sends it (operations.forwarded). Daphne's own access log is
off unless `-v 1` asks for it: the operations layer writes one JSON
line per request instead (operations.asgi). HTTP bodies are counted against MAX_BODY_BYTES as
they arrive (operations.body_cap). Each socket keeps less than under plain daphne: nothing of its
HTTP request once upgraded (operations.upgrade), nothing of its handshake nor copies of the
protocol's options once open, and the header names every handshake repeats once for the process
(operations.websocket, operations.shared_headers); each connection's input queue is an Inbox
(operations.inbox), a fraction of an asyncio.Queue's memory.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from functools import partial
from types import FrameType, MappingProxyType
from typing import Any

import daphne.server
from daphne.cli import CommandLineInterface
from daphne.server import Server
from twisted.internet import reactor

# As manage.py does: `make run` starts this module with nothing set, and the body cap's messages
# are Django's translations, so the settings must be known before it is imported.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from operations.inbox import Inbox  # noqa: E402
from operations.upgrade import HTTPFactory  # noqa: E402
from operations.websocket import WebSocketFactory, WebSocketProtocol  # noqa: E402

log = logging.getLogger("operations.server")

# The scope's "asgi": one for every connection, where daphne makes one each (the application only
# reads it).
ASGI = MappingProxyType({"version": "3.0"})


class GracefulServer(Server):
    def run(self) -> None:
        self.ports: list[Any] = []
        self.draining = False
        self.clean = True  # False once stopped with work left: the process then exits without waiting on it
        reactor.callWhenRunning(self._take_signals)  # after Twisted installed its own handlers
        daphne.server.HTTPFactory = HTTPFactory  # Server.run builds its factories by these names
        daphne.server.WebSocketFactory = WebSocketFactory
        super().run()

    def create_application(self, protocol: Any, scope: dict[str, Any]) -> Inbox | None:
        scope.setdefault("asgi", ASGI)
        queue = self._application_as_daphne_makes_it(protocol, scope)
        instance = self.connections.get(protocol, {}).get("application_instance")
        if instance is not None and not isinstance(protocol, WebSocketProtocol):
            instance.add_done_callback(partial(self._reap, protocol))  # sockets are few and long: daphne's check
        return queue

    def _reap(self, protocol: Any, instance: asyncio.Future[Any]) -> None:
        """Forget a connection whose application ended after its protocol did, at once: daphne's
        own check does it up to a second later, and meanwhile every HTTP request served (its request,
        task, coroutine and queue) stayed alive, so the garbage collector scanned each one over and
        over: pauses of 0.5 to 5 ms for whichever request was being served then (bench/README.md).
        An application that failed is left to daphne's check, which logs it."""
        details = self.connections.get(protocol)
        if details is None or details.get("application_instance") is not instance or "disconnected" not in details:
            return
        if instance.cancelled() or instance.exception() is None:
            del self.connections[protocol]

    def protocol_disconnected(self, protocol: Any) -> None:
        if protocol in self.connections:  # a late word from a connection already forgotten (_reap)
            super().protocol_disconnected(protocol)

    def _application_as_daphne_makes_it(self, protocol: Any, scope: dict[str, Any]) -> Inbox | None:
        """daphne's own create_application (4.2), but the connection's input queue is an Inbox: daphne
        only puts into it and the application only awaits it (tests/operations/test_server.py pins
        daphne's)."""
        assert "application_instance" not in self.connections[protocol]
        input_queue = Inbox()
        scope.setdefault("asgi", {"version": "3.0"})
        application_instance = self.application(
            scope=scope,
            receive=input_queue.get,
            send=partial(self.handle_reply, protocol),
        )
        if protocol not in self.connections:
            return None
        self.connections[protocol]["application_instance"] = asyncio.ensure_future(
            application_instance,
            loop=asyncio.get_event_loop(),
        )
        return input_queue

    def listen_success(self, port: Any) -> None:
        super().listen_success(port)
        self.ports.append(port)

    def _take_signals(self) -> None:
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, self._on_signal)

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        # In the main thread between two bytecodes: hand the work to the reactor.
        if self.draining:
            self.clean = False
            reactor.callFromThread(self.stop)  # a second signal: at once
            return
        self.draining = True
        reactor.callFromThread(self._start_draining, signum)

    def _start_draining(self, signum: int) -> None:
        for port in self.ports:
            port.doRead()  # accept what the kernel already took on, so nothing queued is reset
            port.stopListening()
        log.info(
            "%s: draining %d sockets and %d requests",
            signal.Signals(signum).name,
            len(_state().sockets),
            _state().requests,
        )
        asyncio.ensure_future(self._drain())

    async def _drain(self) -> None:
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
            self.stop()


async def _close_loop_connections() -> None:
    """The event loop's pool and Redis client (web/storage.py)."""
    from web import storage

    try:
        await storage.close()
    except Exception:  # noqa: BLE001 - as below: the process ends either way
        log.exception("could not close the event loop's database connection")


def _close_database_connections() -> None:
    """Nothing is in flight: hang up on PostgreSQL politely (the pool and the sockets' threads)."""
    from django.db import DEFAULT_DB_ALIAS, connections
    from django.db.backends.postgresql.base import DatabaseWrapper

    from web.sockets.consumer import release_database_threads

    try:
        release_database_threads()
        # Asking `.pool` would open one. Django's pool (5.1) is not in django-stubs 5.2.9 yet.
        if DEFAULT_DB_ALIAS in DatabaseWrapper._connection_pools:  # type: ignore[attr-defined]
            connections[DEFAULT_DB_ALIAS].close_pool()  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - the process ends either way; the server sees the sockets close
        log.exception("could not close the database connections")


def _state() -> Any:
    from operations import drain

    return drain.state


class GracefulCommandLine(CommandLineInterface):
    server_class = GracefulServer

    def __init__(self) -> None:
        super().__init__()
        self.parser.set_defaults(verbosity=0)  # daphne's access log only when asked for (-v 1)


# daphne's options that take the client's address from a header whoever sends it: the worker takes
# it only from TRUSTED_PROXIES (operations.forwarded).
PROXY_HEADER_OPTIONS = ("--proxy-headers", "--proxy-headers-host", "--proxy-headers-port")


def main() -> None:
    command = GracefulCommandLine()
    arguments = sys.argv[1:]
    refused = [arg for arg in arguments if arg.split("=", 1)[0] in PROXY_HEADER_OPTIONS]
    if refused:
        command.parser.error(
            f"{refused[0].split('=', 1)[0]} believes X-Forwarded-For from anyone who connects: leave it out "
            "and set TRUSTED_PROXIES to the balancer's address (docs/operations.md)"
        )
    command.run(arguments)
    if not command.server.clean:
        # Work was left (a second signal, or the drain ran out of time): a database call may still
        # hold one of its threads, which a normal exit would wait for. Its transaction rolls back
        # when the connection closes, and it was never acknowledged.
        logging.shutdown()
        os._exit(1)


if __name__ == "__main__":
    main()
