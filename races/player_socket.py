"""`/ws/me/`: one socket a signed-in player's pages hold (opened by every page for a signed-in
player, frontend/static/frontend/js/player_socket.js), where the server tells them what concerns
them wherever they are: a challenge received or answered, and the room a quick match placed them in.

The consumer only relays what the services send to the player's group once their transaction has
committed (`tell_on_commit`); on connect and when live updates resume it sends the challenges still
open, so a page opened late or cut off meanwhile misses none.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import groups
from games.models import Player
from games.players.signed_in import signed_in_player
from races import selectors
from web.errors import NotAuthenticated
from web.sockets.close_codes import CLOSE_SIGNED_OUT
from web.sockets.live import LiveConsumer


def player_group(player_id: int) -> str:
    return f"player.{player_id}"


def tell_on_commit(player_ids: Iterable[int], message: dict[str, Any]) -> None:
    """Send `message` to each player's sockets once the transaction commits (a lost push loses no
    write: the pages also learn it from the next poll or on reconnecting)."""
    tell_each_on_commit([(list(player_ids), message)])


def tell_each_on_commit(messages: list[tuple[list[int], dict[str, Any]]]) -> None:
    """`tell_on_commit` of many messages, each to its players, sent together on one event loop."""

    async def send_all() -> None:
        for player_ids, message in messages:
            for player_id in player_ids:
                await groups.send(player_group(player_id), message)

    if messages:
        transaction.on_commit(async_to_sync(send_all), robust=True)


def _challenges(player: Player) -> list[dict[str, Any]]:
    now = timezone.now()
    return [selectors.challenge_document(c, now=now) for c in selectors.open_challenges(player, now=now)]


class PlayerConsumer(LiveConsumer):
    """The player's own socket: relays `player.*` messages of the services, accepts none."""

    async def connect(self) -> None:
        await self.accept()
        player = signed_in_player(self.scope.get("user"))
        if player is None or player.is_guest:
            await self.send_refusal(NotAuthenticated(gettext("Sign in to receive challenges.")))
            await self.close(code=CLOSE_SIGNED_OUT)
            return
        self.player = player
        await self.join(player_group(player.pk))  # before the read: nothing sent meanwhile is lost
        await self.send_open_challenges()

    async def send_open_challenges(self) -> None:
        challenges = await database_sync_to_async(_challenges)(self.player)
        await self.send_json({"type": "challenges", "challenges": challenges})

    async def live_resumed(self, event: dict[str, Any]) -> None:
        await self.send_open_challenges()

    async def player_challenge(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "challenge", "challenge": event["challenge"]})

    async def player_placed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "placed", "room": event["room"], "variant": event["variant"]})
