"""WebSockets of the leaderboard app: live boards and race rooms. Consumers only relay.

Changes are sent by the services after their transaction commits, to the
groups named in games.groups; these consumers pass them on.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from games import groups
from games.models import Player
from games.players.signed_in import signed_in_player
from games.ranking.boards import Board, parse_board
from games.rooms import rooms
from leaderboard import selectors
from operations import metrics
from web import paging
from web.errors import NotAuthenticated, ServiceError
from web.sockets.close_codes import CLOSE_BAD_INPUT, CLOSE_NOT_FOUND
from web.sockets.consumer import encode_frame
from web.sockets.live import LiveConsumer

# A hot board sends a watcher at most one message per this many seconds (after the first).
COALESCE_SECONDS = 0.25


PAUSED = gettext_noop(
    "Live updates are paused: the server cannot reach its message service. "
    "This page shows the state when you opened it and refreshes by itself when live updates resume."
)


def _viewer(scope: dict[str, Any]) -> Player | None:
    return signed_in_player(scope.get("user"))


class PausableConsumer(LiveConsumer):
    """A socket that says so to its client while the channel layer is away, and sends the whole
    state again (`resync`) when live updates resume (web.sockets.live)."""

    paused = False

    async def live_paused(self, event: dict[str, Any]) -> None:
        if not self.paused:
            self.paused = True
            await self.send_error(503, gettext(PAUSED))

    async def live_resumed(self, event: dict[str, Any]) -> None:
        if self.paused:
            self.paused = False
            await self.resync()

    async def resync(self) -> None:
        """Send the whole state again: changes made while live updates were paused were not pushed."""


class LeaderboardConsumer(PausableConsumer):
    """`/ws/leaderboards/{board}/`: a snapshot, then each change; a burst is coalesced.

    Within one coalescing window a single changed entry is sent as a change; several are
    replaced by one fresh snapshot, so a watcher always ends at the board's true state.

    A watcher whose client stops reading slows no other (the server buffers what it sends) and
    is dropped once it misses daphne's pings (`--ping-interval`, `--ping-timeout`).
    """

    flusher: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        await self.accept()
        self.viewer = _viewer(self.scope)
        self.pending: dict[str, dict[str, Any]] = {}
        self.next_send = 0.0
        self.changed_at = 0.0  # loop time of the latest change handed to this socket
        self.sending = asyncio.Lock()
        try:
            self.board = parse_board(self.scope["url_route"]["kwargs"]["board"], today=timezone.now().date())
            self.limit = _limit(self.scope)
        except ServiceError as error:
            await self.send_refusal(error)
            await self.close(code=CLOSE_NOT_FOUND if error.status == 404 else CLOSE_BAD_INPUT)
            return
        # Join first: a change committed while the snapshot is read still arrives after it.
        async with self.sending:  # a change delivered meanwhile waits for the snapshot to go first
            live = await self.join(groups.board_group(self.board.id))
            await self._send_snapshot()
        if not live:
            await self.live_paused({})

    async def disconnect(self, code: int) -> None:
        if self.flusher is not None:
            self.flusher.cancel()

    async def resync(self) -> None:
        async with self.sending:
            await self.send_json({"type": "snapshot", "resync": True, **await self._snapshot()})

    async def deliver(self, message: dict[str, Any]) -> None:
        if message["type"] != "board.change":
            await super().deliver(message)
            return
        metrics.push_arrived(message)
        loop = asyncio.get_running_loop()
        if self.flusher is None and not self.pending and not self.sending.locked() and loop.time() >= self.next_send:
            # The usual case: nothing waiting and the spacing past, so send now, in the process's
            # turn (a task and a lock per watcher were most of a 1,000-watcher fan-out's cost).
            self.next_send = loop.time() + COALESCE_SECONDS
            await self.send(text_data=_change_text(message))
            return
        await self.board_change(message)

    async def board_change(self, event: dict[str, Any]) -> None:
        self.changed_at = asyncio.get_running_loop().time()
        player = event["entry"]["player"]
        self.pending.pop(player, None)  # keep the latest per player, in the order of the latest
        self.pending[player] = event
        if self.flusher is None:
            self.flusher = asyncio.create_task(self._flush())

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        async with self.sending:
            # Wait out the spacing only once the previous message has gone out.
            wait = self.next_send - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            self.flusher = None
            pending, self.pending = self.pending, {}
            if len(pending) == 1:
                (event,) = pending.values()
                await self.send(text_data=_change_text(event))
            elif pending:
                await self._send_snapshot(since=self.changed_at)
            # Spaced from when a message went out, not from when it was begun (a snapshot takes a query).
            self.next_send = loop.time() + COALESCE_SECONDS

    async def _send_snapshot(self, since: float | None = None) -> None:
        """The board now: a read begun after `since` (default: begun now, e.g. after joining)."""
        if self.viewer is None:
            loop = asyncio.get_running_loop()
            text = await _shared_snapshot(self.board, self.limit, since=loop.time() if since is None else since)
            await self.send(text_data=text)
            return
        await self.send_json({"type": "snapshot", **await self._snapshot()})

    async def _snapshot(self) -> dict[str, Any]:
        return await selectors.read_board(self.board, selectors.player_id_of(self.viewer), limit=self.limit)


async def _read_snapshot_text(board: Board, limit: int) -> str:
    return encode_frame({"type": "snapshot", **await selectors.read_board(board, None, limit=limit)})


# Anonymous watchers of a board in this process see the same document: a burst's coalesced
# snapshots share one read and its one encoded text, provided the read began after the change
# that made the watcher want it.
_reads: dict[tuple[str, int], tuple[float, asyncio.Future[str]]] = {}


async def _shared_snapshot(board: Board, limit: int, *, since: float) -> str:
    loop = asyncio.get_running_loop()
    key = (board.id, limit)
    found = _reads.get(key)
    if found is not None:
        started, read = found
        usable = started >= since and read.get_loop() is loop
        if usable and not (read.done() and (read.cancelled() or read.exception() is not None)):
            return await asyncio.shield(read)
    read = asyncio.ensure_future(_read_snapshot_text(board, limit))
    _reads[key] = (loop.time(), read)
    return await asyncio.shield(read)


def _change_text(event: dict[str, Any]) -> str:
    """The change's frame, encoded once for all of a process's watchers: each process reads a
    group message once and hands every socket of the group the same dict (web.sockets.live)."""
    text = event.get("text")
    if text is None:
        text = event["text"] = encode_frame({"type": "change", "entry": event["entry"], "board": event["board"]})
    return str(text)


def _limit(scope: dict[str, Any]) -> int:
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("limit")
    return paging.limit(values[-1] if values else None)


def _room_view(room_id: str, viewer: Player | None) -> tuple[dict[str, Any], dict[str, Any]]:
    room = rooms.room_for(room_id)
    return rooms.room_document(room), rooms.you_in(room, viewer)


def _you(room_id: str, viewer: Player | None) -> dict[str, Any]:
    return rooms.you_in(rooms.room_for(room_id), viewer)


class RoomConsumer(PausableConsumer):
    """`/ws/rooms/{room id}/`: the room on every change; the host may send {"type": "start"}."""

    async def connect(self) -> None:
        await self.accept()
        self.viewer = _viewer(self.scope)
        self.room_id = str(self.scope["url_route"]["kwargs"]["room_id"])
        try:
            document, self.you = await database_sync_to_async(_room_view)(self.room_id, self.viewer)
        except ServiceError as error:
            await self.send_refusal(error)
            await self.close(code=CLOSE_NOT_FOUND)
            return
        # Joined first, then read again: a change made meanwhile is not lost.
        live = await self.join(groups.room_group(document["id"]))
        await self.resync()
        if not live:
            await self.live_paused({})

    async def resync(self) -> None:
        document, self.you = await database_sync_to_async(_room_view)(self.room_id, self.viewer)
        self.seen = (document["state"], len(document["players"]))
        await self.send_json({"type": "room", **document, "you": self.you})

    async def receive_message(self, message: dict[str, Any]) -> None:
        if message["type"] != "start":
            await self.send_error(400, gettext('The only message a room accepts is {"type": "start"}, from its host.'))
            return
        if self.viewer is None:
            await self.send_refusal(
                NotAuthenticated(gettext("Sign in or start a guest game first: this needs a player."))
            )
            return
        try:
            await database_sync_to_async(rooms.start_room)(room_id=self.room_id, player=self.viewer)
        except ServiceError as error:
            await self.send_refusal(error)
        # On success the room's broadcast brings the new state to every socket, this one too.

    async def room_update(self, event: dict[str, Any]) -> None:
        metrics.push_arrived(event)
        document = event["room"]
        seen = (document["state"], len(document["players"]))
        if seen != self.seen:  # someone joined, or the race started or ended: my part may be new
            self.seen = seen
            self.you = await database_sync_to_async(_you)(self.room_id, self.viewer)
        await self.send_json({"type": "room", **document, "you": self.you})
