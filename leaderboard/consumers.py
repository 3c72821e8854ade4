"""WebSockets of the leaderboard app: live boards and race rooms. Consumers only relay.

Changes are sent by the services after their transaction commits, to the
groups named in leaderboard.groups; these consumers pass them on.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.utils import timezone

from config.errors import BadRequest, NotAuthenticated, ServiceError
from config.ws import JsonConsumer
from leaderboard import groups, rooms, selectors
from leaderboard.boards import parse_board
from leaderboard.models import Player

CLOSE_UNAUTHORIZED = 4401
CLOSE_BAD_REQUEST = 4400
CLOSE_NOT_FOUND = 4404
# A hot board sends a watcher at most one message per this many seconds (after the first).
COALESCE_SECONDS = 0.25


def _viewer(scope: dict[str, Any]) -> Player | None:
    user = scope.get("user")
    return user if isinstance(user, Player) and user.is_authenticated else None


class LeaderboardConsumer(JsonConsumer):
    """`/ws/leaderboards/{board}/`: a snapshot, then each change; a burst is coalesced.

    Within one coalescing window a single changed entry is sent as a change; several are
    replaced by one fresh snapshot, so a watcher always ends at the board's true state.
    """

    group = ""
    flusher: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        await self.accept()
        self.viewer = _viewer(self.scope)
        self.pending: dict[str, dict[str, Any]] = {}
        self.next_send = 0.0
        self.sending = asyncio.Lock()
        try:
            self.board = parse_board(self.scope["url_route"]["kwargs"]["board"], today=timezone.now().date())
            self.limit = _limit(self.scope)
        except ServiceError as error:
            await self.send_refusal(error)
            await self.close(code=CLOSE_NOT_FOUND if error.status == 404 else CLOSE_BAD_REQUEST)
            return
        # Join first: a change committed while the snapshot is read still arrives after it.
        self.group = groups.board_group(self.board.id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.send_json({"type": "snapshot", **await self._snapshot()})

    async def disconnect(self, code: int) -> None:
        if self.flusher is not None:
            self.flusher.cancel()
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def board_change(self, event: dict[str, Any]) -> None:
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
                await self.send_json({"type": "change", "entry": event["entry"], "board": event["board"]})
            elif pending:
                await self.send_json({"type": "snapshot", **await self._snapshot()})
            # Spaced from when a message went out, not from when it was begun (a snapshot takes a query).
            self.next_send = loop.time() + COALESCE_SECONDS

    async def _snapshot(self) -> dict[str, Any]:
        return await database_sync_to_async(selectors.leaderboard)(
            board=self.board, viewer=self.viewer, limit=self.limit
        )


def _limit(scope: dict[str, Any]) -> int:
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("limit")
    if not values:
        return selectors.DEFAULT_LIMIT
    text = values[-1]
    value = int(text) if text.isascii() and text.isdigit() and len(text) <= 4 else 0
    if not 1 <= value <= selectors.MAX_LIMIT:
        raise BadRequest(f"limit is a whole number from 1 to {selectors.MAX_LIMIT}.")
    return value


def _room_view(room_id: str, viewer: Player | None) -> tuple[dict[str, Any], dict[str, Any]]:
    room = rooms.room_for(room_id)
    return rooms.room_document(room), rooms.you_in(room, viewer)


def _you(room_id: str, viewer: Player | None) -> dict[str, Any]:
    return rooms.you_in(rooms.room_for(room_id), viewer)


class RoomConsumer(JsonConsumer):
    """`/ws/rooms/{room id}/`: the room on every change; the host may send {"type": "start"}."""

    group = ""

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
        self.seen = (document["state"], len(document["players"]))
        self.group = groups.room_group(document["id"])
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.send_json({"type": "room", **document, "you": self.you})

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_message(self, message: dict[str, Any]) -> None:
        if message["type"] != "start":
            await self.send_error(400, 'The only message a room accepts is {"type": "start"}, from its host.')
            return
        if self.viewer is None:
            await self.send_refusal(NotAuthenticated("Sign in or start a guest game first: this needs a player."))
            return
        try:
            await database_sync_to_async(rooms.start_room)(room_id=self.room_id, player=self.viewer)
        except ServiceError as error:
            await self.send_refusal(error)
        # On success the room's broadcast brings the new state to every socket, this one too.

    async def room_update(self, event: dict[str, Any]) -> None:
        document = event["room"]
        seen = (document["state"], len(document["players"]))
        if seen != self.seen:  # someone joined, or the race started or ended: my part may be new
            self.seen = seen
            self.you = await database_sync_to_async(_you)(self.room_id, self.viewer)
        await self.send_json({"type": "room", **document, "you": self.you})
