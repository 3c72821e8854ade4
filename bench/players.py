"""Bench players: each holds a refereed session over `/ws/play/{id}/` and plays legal moves.

The driver keeps its own copy of each game (it knows the code of a free-play
deal) and picks the next action from it with the seeded, progress-biased
choice of bench/engine.py, so every action it sends is legal and it never has
to wait for an answer to know what to send next (open loop). A game that is
won or has no legal action left is replaced by a fresh session.
"""

from __future__ import annotations

import asyncio
import collections
import random
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import orjson

from bench.engine import weight
from bench.stack import Stack, headers
from games.engine import Game

# Every variant but RU1-R, whose random games jam within ~150 actions (no undo to get out).
VARIANTS = ("SP1-S4C", "SP1-S2C", "SP1-S1C", "SD1-S2", "SD1-S4", "SD1-S1", "RU1-C", "SP1-S2R", "SP1-S4R")
# An action's answer: the whole session document, or (docs/api.md) what changed since the last one.
ANSWERS = ('{"type":"session"', '{"type":"delta"')


def start_sessions(player_ids: list[int], per_player: int) -> list[list[tuple[str, str]]]:
    """Sessions on fresh deals started in this process by the same service as POST /api/sessions.

    (Over HTTP each request runs on a thread of its own under daphne, and with DB_CONN_MAX_AGE
    each such thread keeps its own connection open: set-up would fill max_connections.)
    """
    from games import services
    from games.models import Player

    players = {p.pk: p for p in Player.objects.filter(pk__in=player_ids)}
    made = []
    for n, pk in enumerate(player_ids):
        mine = []
        for k in range(per_player):
            variant = VARIANTS[(n + k) % len(VARIANTS)]
            session, _ = services.start_session(player=players[pk], variant=variant)
            mine.append((str(session.id), session.stored_code.code))
        made.append(mine)
    return made


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)  # seconds, answers to actions sent in the window
    sizes: list[int] = field(default_factory=list)  # bytes of each answer to an action sent in the window
    lags: list[float] = field(default_factory=list)  # driver lateness behind the open-loop schedule
    errors: collections.Counter[str] = field(default_factory=collections.Counter)
    sent: int = 0
    answered: int = 0
    sessions: int = 0
    received: int = 0  # answers that arrived inside the window, whenever their action was sent
    window: tuple[float, float] = (0.0, float("inf"))


class Bot:
    def __init__(
        self,
        n: int,
        token: str,
        stack: Stack,
        http: aiohttp.ClientSession,
        tally: Tally,
        ready: list[tuple[str, str]] | None = None,
    ) -> None:
        self.n = n
        self.ready = list(ready or [])  # sessions started beforehand: (id, code)
        self.token = token
        self.stack = stack
        self.http = http
        self.tally = tally
        self.rng = random.Random(n)
        self.pending: collections.deque[tuple[float, bool]] = collections.deque()
        self.idle = asyncio.Event()
        self.idle.set()
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.reader: asyncio.Task[None] | None = None
        self.game: Game | None = None
        self.games = 0
        self.closed = False

    async def open(self) -> None:
        """Start a session on a fresh deal over HTTP, then its play socket."""
        await self.close()
        variant = VARIANTS[(self.n + self.games) % len(VARIANTS)]
        self.games += 1
        if self.ready:
            session_id, code = self.ready.pop(0)
            doc = {"id": session_id, "code": code}
        else:
            base = self.stack.http(self.n)
            body = {"variant": variant}
            async with self.http.post(f"{base}/api/sessions", json=body, headers=headers(self.token)) as r:
                if r.status != 201:
                    raise RuntimeError(f"start session: {r.status} {await r.text()}")
                doc = await r.json()
        self.game = Game.from_code(doc["code"])
        port = self.stack.port(self.n)
        self.ws = await self.http.ws_connect(
            f"{self.stack.ws(self.n)}/ws/play/{doc['id']}/", headers=headers(self.token, port), autoping=True
        )
        first = await self.ws.receive(timeout=30)
        if first.type != aiohttp.WSMsgType.TEXT or not first.data.startswith('{"type":"session"'):
            raise RuntimeError(f"play socket said {first.data!r}")
        self.tally.sessions += 1
        self.closed = False
        self.reader = asyncio.create_task(self._read(self.ws))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await self.reader
        self.ws = self.reader = None

    async def _read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        async for msg in ws:
            now = time.perf_counter()
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            if not self.pending:
                self.tally.errors["unasked"] += 1
                continue
            sent_at, counted = self.pending.popleft()
            if self.tally.window[0] <= now < self.tally.window[1]:
                self.tally.received += 1
            if not msg.data.startswith(ANSWERS):
                body: dict[str, Any] = orjson.loads(msg.data)
                self.tally.errors[f"{body.get('type')} {body.get('status')}"] += 1
            elif counted:
                self.tally.latencies.append(now - sent_at)
                self.tally.sizes.append(len(msg.data.encode()))
            if counted:
                self.tally.answered += 1
            if not self.pending:
                self.idle.set()
        if ws.close_code not in (None, 1000) or self.pending:
            self.tally.errors[f"socket closed {ws.close_code} with {len(self.pending)} unanswered"] += 1
        self.closed = True
        self.idle.set()

    def next_token(self) -> str | None:
        game = self.game
        if game is None or game.won:
            return None
        legal = game.legal_actions()
        if not legal:
            return None
        action = self.rng.choices(legal, [weight(game, a) for a in legal])[0]
        game.push(action)
        return str(action)

    async def send(self, scheduled: float | None = None) -> None:
        token = self.next_token()
        if token is None:  # this game is over: wait for its answers, then a new one
            await asyncio.wait_for(self.idle.wait(), 30)
            await self.open()
            token = self.next_token()
            assert token is not None
        assert self.ws is not None
        if self.closed:
            return
        now = time.perf_counter()
        counted = self.tally.window[0] <= now < self.tally.window[1]
        if counted:
            self.tally.sent += 1
            if scheduled is not None:
                self.tally.lags.append(max(0.0, now - scheduled))
        self.pending.append((now, counted))
        self.idle.clear()
        await self.ws.send_str(orjson.dumps({"type": "action", "action": token}).decode())

    async def open_loop(self, rate: float, start: float, end: float) -> None:
        """Send `rate` actions a second on a clock, whatever the answers do."""
        period = 1.0 / rate
        tick = start + self.rng.random() * period
        while tick < end and not self.closed:
            delay = tick - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            await self.send(tick)
            tick += period
            now = time.perf_counter()
            if tick < now - 1.0:  # fell a second behind (a session change): skip, never burst
                tick = now

    async def closed_loop(self, end: float) -> None:
        """Act again as soon as the previous action is answered."""
        while time.perf_counter() < end and not self.closed:
            await self.send()
            await asyncio.wait_for(self.idle.wait(), 30)

    async def drain(self, timeout: float) -> None:
        try:
            await asyncio.wait_for(self.idle.wait(), timeout)
        except TimeoutError:
            pass
