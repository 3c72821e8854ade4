"""`/ws/play/{session id}/`: actions in, session documents out (whole, then as deltas). The consumer only relays."""

from __future__ import annotations

from typing import Any

from django.db import DatabaseError
from django.utils import timezone
from django.utils.translation import gettext

from games import live, selectors, services, session_delta, why
from games.models import Player
from web.errors import NotAuthenticated, ServiceError, Unavailable
from web.sockets.auth import still_signed_in
from web.sockets.close_codes import CLOSE_NOT_FOUND, CLOSE_SIGNED_OUT
from web.sockets.consumer import JsonConsumer, in_database_thread
from web.views import UNAVAILABLE


def _document_for(player: Player, session_id: str) -> dict[str, Any]:
    now = timezone.now()
    session = selectors.session_for(player=player, session_id=session_id)
    return selectors.session_document(session, live.game_for(session), now=now)


class SignedOut(NotAuthenticated):
    """The socket's token was revoked or its session ended, or its player was deactivated."""


def _act(scope: dict[str, Any], player: Player, session_id: str, message: dict[str, Any]) -> dict[str, Any]:
    if not still_signed_in(scope):
        raise SignedOut(gettext("You are signed out: sign in again to play on."))
    if message["type"] == "sync":
        return {"type": "session", "document": _document_for(player, session_id)}
    now = timezone.now()
    if message["type"] == "why":
        answer = why.why_not(
            player=player, session_id=session_id, group=message.get("group"), action=message.get("action")
        )
        return {"type": "why", **answer}
    if message["type"] == "action":
        played = services.apply_action(
            player=player, session_id=session_id, token=message.get("action"), at=message.get("at"), now=now
        )
        return {"type": "session", "document": selectors.session_document(played.session, played.game, now=now)}
    session, game = services.finish_session(player=player, session_id=session_id, now=now)
    return {"type": "session", "document": selectors.session_document(session, game, now=now)}


class PlayConsumer(JsonConsumer):
    # Requests and answers only, nothing is pushed here: no channel layer, so that play over the
    # socket goes on while Redis is away (an alias with no layer configured gives None).
    channel_layer_alias = "play-needs-no-channel-layer"
    # The last session document sent, as its JSON (session_delta): what the next delta applies to.
    sent: bytes | None = None

    async def connect(self) -> None:
        await self.accept()
        user = self.scope.get("user")
        self.session_id = str(self.scope["url_route"]["kwargs"]["session_id"])
        if not isinstance(user, Player) or not user.is_authenticated:
            await self.send_refusal(
                NotAuthenticated(gettext("Sign in or start a guest game first: this needs a player."))
            )
            await self.close(code=CLOSE_SIGNED_OUT)
            return
        self.player = user
        try:
            document = await in_database_thread(_document_for)(user, self.session_id)
        except ServiceError as error:
            await self.send_refusal(error)
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.send_session(document)

    async def send_session(self, document: dict[str, Any]) -> None:
        """Every session document this socket sends leaves through here: the whole of it first, then
        what changed since the last one (docs/api.md)."""
        frame, self.sent = session_delta.next_frame(document, self.sent)
        await self.send(text_data=frame.decode())

    async def receive_message(self, message: dict[str, Any]) -> None:
        if message["type"] not in {"action", "finish", "why", "sync"}:
            await self.send_error(
                400,
                'Send {"type": "action", "action": token}, {"type": "why", "group": "3:4"}, {"type": "finish"}'
                ' or {"type": "sync"}.',
            )
            return
        try:
            answer = await in_database_thread(_act)(self.scope, self.player, self.session_id, message)
        except SignedOut as error:
            await self.send_refusal(error)
            await self.close(code=CLOSE_SIGNED_OUT)
            return
        except ServiceError as error:
            await self.send_refusal(error)
            return
        except DatabaseError:
            await self.send_refusal(Unavailable(gettext(UNAVAILABLE)))
            return
        if message["type"] == "sync":
            self.sent = None  # asked for: the whole document, whatever the client holds
        if answer["type"] == "session":
            await self.send_session(answer["document"])
        else:
            await self.send_json(answer)
