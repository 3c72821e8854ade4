"""`/ws/play/{session id}/`: actions in, session documents out (whole, then as deltas). The consumer only relays."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import DatabaseError
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from games import live, play_loop, selectors, services, why
from games.last_sent import LastSent
from games.models import Player
from games.players import token_auth
from games.players.signed_in import signed_in_player
from web.errors import NotAuthenticated, ServiceError, Unavailable
from web.sockets.auth import signed_in_until
from web.sockets.close_codes import CLOSE_NOT_FOUND, CLOSE_SIGNED_OUT
from web.sockets.consumer import JsonConsumer, in_database_thread
from web.sockets.frames import Frame, Outlet
from web.sockets.sign_ins import SignIn
from web.views import UNAVAILABLE


def _document_for(player: Player, session_id: str) -> dict[str, Any]:
    now = timezone.now()
    session = selectors.session_for(player=player, session_id=session_id)
    return selectors.session_document(session, live.game_for(session), now=now)


class SignedOut(NotAuthenticated):
    """The socket's token was revoked or its session ended, or its player was deactivated."""


SIGNED_OUT = gettext_noop("You are signed out: sign in again to play on.")


def _act(
    scope: dict[str, Any], player: Player, session_id: str, message: dict[str, Any], counted: bool, checked: bool
) -> tuple[dict[str, Any], dt.datetime | None]:
    """The answer to `message`, and until when the socket's sign-in holds (None: not asked, `checked`
    already knew it holds). `counted`: the action's rate budget was spent on the event loop."""
    until = None
    if not checked:
        until = signed_in_until(scope)
        if until is None:
            raise SignedOut(gettext(SIGNED_OUT))
    return _answer(player, session_id, message, counted), until


def _answer(player: Player, session_id: str, message: dict[str, Any], counted: bool) -> dict[str, Any]:
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
            player=player,
            session_id=session_id,
            token=message.get("action"),
            at=message.get("at"),
            now=now,
            counted=counted,
        )
        return {"type": "session", "document": selectors.session_document(played.session, played.game, now=now)}
    session, game = services.finish_session(player=player, session_id=session_id, now=now)
    return {"type": "session", "document": selectors.session_document(session, game, now=now)}


class PlayConsumer(JsonConsumer):
    # Requests and answers only, nothing is pushed here: no channel layer, so that play over the
    # socket goes on while Redis is away (an alias with no layer configured gives None).
    channel_layer_alias = "play-needs-no-channel-layer"

    async def connect(self) -> None:
        await self.accept()
        self.outlet = Outlet(self.base_send)  # answers written straight to the socket (web/sockets/frames.py)
        user = signed_in_player(self.scope.get("user"))
        self.session_id = str(self.scope["url_route"]["kwargs"]["session_id"])
        if user is None:
            await self.send_refusal(
                NotAuthenticated(gettext("Sign in or start a guest game first: this needs a player."))
            )
            await self.close(code=CLOSE_SIGNED_OUT)
            return
        self.player = user
        self.last_sent = LastSent()  # what the next delta applies to (games/last_sent.py)
        self.sign_in = SignIn(user.pk)  # asked on the first message, then kept (web/sockets/sign_ins.py)
        token_auth.local_cache()  # the revocations' listener, which lets the sign-in be kept
        try:
            document = await in_database_thread(_document_for)(user, self.session_id)
        except ServiceError as error:
            await self.send_refusal(error)
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.send_session(document, playing=False)

    async def disconnect(self, code: int) -> None:
        sign_in = getattr(self, "sign_in", None)
        if sign_in is not None:
            sign_in.close()
        last_sent = getattr(self, "last_sent", None)
        if last_sent is not None:
            last_sent.close()

    async def send_session(self, document: dict[str, Any], *, playing: bool = True) -> None:
        """Every session document this socket sends leaves through here: the whole of it first, then
        what changed since the last one (docs/api.md)."""
        await self.outlet.put(Frame.of_json(self.last_sent.frame(document, playing=playing)))

    async def receive_message(self, message: dict[str, Any]) -> None:
        if message["type"] not in {"action", "finish", "why", "sync"}:
            await self.send_error(
                400,
                'Send {"type": "action", "action": token}, {"type": "why", "group": "3:4"}, {"type": "finish"}'
                ' or {"type": "sync"}.',
            )
            return
        checked = self.sign_in.holds()
        counted = False
        if checked and message["type"] == "action":
            try:
                fast = await play_loop.act(
                    player=self.player, session_id=self.session_id, message=message, now=timezone.now()
                )
            except ServiceError as error:
                await self.send_refusal(error)
                return
            if not isinstance(fast, play_loop.Handoff):
                await self.send_session(fast)
                return
            counted = fast.counted
        arming = self.sign_in.arming()
        try:
            answer, until = await in_database_thread(_act)(
                self.scope, self.player, self.session_id, message, counted, checked
            )
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
        if until is not None:
            self.sign_in.arm(arming, until)
        if message["type"] == "sync":
            self.last_sent.forget()  # asked for: the whole document, whatever the client holds
        if answer["type"] == "session":
            await self.send_session(answer["document"])
        else:
            await self.send_json(answer)
