"""`/ws/play/{session id}/`: actions in, session documents out (whole, then as deltas). The consumer only relays.

Each socket also follows its game where it is played elsewhere (another tab, another device, a
script over HTTP): it joins its session's group and, told of a change it has not sent yet
(games.sessions.pushes), reads the game as it is now and sends it, marked `pushed`. While the
channel layer is away it plays on (web.sockets.live), and the page asks for the game when it
comes back into view.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import uuid
from typing import Any

from django.db import DatabaseError
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from games import groups, selectors, services
from games.models import Player
from games.players.signed_in import signed_in_player
from games.sessions import live, play_loop, why
from games.sessions import pushes as session_pushes
from games.sessions.last_sent import LastSent
from operations import metrics
from web.errors import NotAuthenticated, ServiceError, Unavailable
from web.sockets.auth import hear_revocations, signed_in_until
from web.sockets.close_codes import CLOSE_NOT_FOUND, CLOSE_SIGNED_OUT
from web.sockets.consumer import in_database_thread
from web.sockets.live import LiveConsumer
from web.sockets.sign_ins import SignIn
from web.views import UNAVAILABLE

log = logging.getLogger(__name__)


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


class PlayConsumer(LiveConsumer):
    shown: tuple[int, bool] = (-1, False)  # the version of the last document sent (session_pushes.version_of)
    told: tuple[int, bool] = (-1, False)  # the latest version the group told of, or known to exist
    stale = False  # live updates resumed: what changed meanwhile was not told
    ready = False  # the first document is sent: from then on a change told is followed
    busy = False  # a client's message is being answered: its answer goes first, then the following
    follower: asyncio.Task[None] | None = None
    elsewhere = False  # another socket of this session is open: this one tells of its moves
    key = ""  # this socket, among the session's (games.sessions.pushes.opened)
    session_key: uuid.UUID | None = None  # None: not a session id (the read refuses it)

    async def connect(self) -> None:
        await self.accept()
        user = signed_in_player(self.scope.get("user"))
        self.session_id = str(self.scope["url_route"]["kwargs"]["session_id"])
        if user is None:
            await self.send_refusal(
                NotAuthenticated(gettext("Sign in or start a guest game first: this needs a player."))
            )
            await self.close(code=CLOSE_SIGNED_OUT)
            return
        self.player = user
        self.last_sent = LastSent()  # what the next delta applies to (games/sessions/last_sent.py)
        self.sign_in = SignIn(user.pk)  # asked on the first message, then kept (web/sockets/sign_ins.py)
        hear_revocations()  # the revocations' listener, which lets the sign-in be kept
        # Joined before the game is read, so that no change committed meanwhile goes untold. What a
        # change told makes it send is read for this player, whose game it must be (_document_for).
        self.key = uuid.uuid4().hex
        with contextlib.suppress(ValueError):  # not a session id: the read refuses it
            self.session_key = uuid.UUID(self.session_id)
        if self.session_key is not None:
            await self.join(groups.session_group(self.session_key))
        try:
            document = await in_database_thread(_document_for)(user, self.session_id)
        except ServiceError as error:
            await self.send_refusal(error)
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.send_session(document, playing=False)
        self.ready = True
        self.follow()
        self.say_opened()

    async def disconnect(self, code: int) -> None:
        if self.follower is not None:
            self.follower.cancel()
        sign_in = getattr(self, "sign_in", None)
        if sign_in is not None:
            sign_in.close()
        last_sent = getattr(self, "last_sent", None)
        if last_sent is not None:
            last_sent.close()

    async def send_session(self, document: dict[str, Any], *, playing: bool = True, pushed: bool = False) -> None:
        """Every session document this socket sends leaves through here: the whole of it first, then
        what changed since the last one (docs/api.md)."""
        # An answer read before a change this socket has already sent goes back in time: the later
        # state is sent again after it (follow).
        self.told = max(self.told, self.shown)
        self.shown = session_pushes.version_of(document)
        await self.send(text_data=self.last_sent.frame(document, playing=playing, pushed=pushed).decode())

    # ------------------------------------------------------------ following the game played elsewhere

    async def deliver(self, message: dict[str, Any]) -> None:
        """A change of the game, committed (games.sessions.pushes), or live updates resumed: the
        game is read and sent (`follow`) unless this socket sent that state. Nothing here waits."""
        kind = message.get("type")
        if kind == session_pushes.CHANGED:
            metrics.push_arrived(message)
            self.told = max(self.told, (message["actions"], message["finished"]))
        elif kind == session_pushes.OPENED:
            if message["socket"] != self.key:
                self.another_opened(reply=message["reply"])
            return
        elif kind == "live.resumed":
            self.stale = True
            self.say_opened()  # a socket that opened meanwhile was not heard
        else:
            return
        self.follow()

    def say_opened(self, *, reply: bool = False) -> None:
        if self.session_key is not None:
            session_pushes.opened(self.session_key, self.key, reply=reply)

    def another_opened(self, *, reply: bool) -> None:
        """Another socket of this session is open: from now on this one tells of its moves, and it
        tells the state it has sent now, which holds a move made before the two heard of each other."""
        self.elsewhere = True
        if not reply:
            self.say_opened(reply=True)
        self.tell(self.shown)

    def tell(self, version: tuple[int, bool]) -> None:
        """Tell the session's other sockets of `version`, if there are any (and a state was sent)."""
        if self.elsewhere and self.session_key is not None and version[0] >= 0:
            session_pushes.announce(self.session_key, actions=version[0], finished=version[1])

    def behind(self) -> bool:
        """Whether a state this socket has not sent exists (the answer to its own action is sent)."""
        return self.stale or self.told > self.shown

    def follow(self) -> None:
        """Read and send the game as it is now if this socket is behind, once its answer in hand (if
        any) is sent, and unless a read is under way already (which then reads again)."""
        if self.ready and not self.busy and self.behind() and (self.follower is None or self.follower.done()):
            self.follower = asyncio.get_running_loop().create_task(self._follow())

    async def _follow(self) -> None:
        while self.behind():
            self.stale, told = False, self.told
            try:
                document = await in_database_thread(_document_for)(self.player, self.session_id)
            except (ServiceError, DatabaseError) as error:
                log.info("play socket of %s could not follow its game: %s", self.session_id, error)
                return  # the page asks for the game when it comes back into view
            if self.busy:
                # An answer is under way: it goes first, and the read is made again after it
                # (follow), so no pushed state runs ahead of the answer to the client's own message.
                self.stale = True
                return
            if session_pushes.version_of(document) > self.shown:  # not sent meanwhile
                await self.send_session(document, playing=False, pushed=True)
            elif self.told == told:
                return  # nothing newer than this socket sent, and nothing told since

    async def receive_message(self, message: dict[str, Any]) -> None:
        self.busy = True
        try:
            await self.answer(message)
        finally:
            self.busy = False
            self.follow()

    async def answer(self, message: dict[str, Any]) -> None:
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
                self.tell(session_pushes.version_of(fast))  # committed: the other sockets may read it
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
