"""What a play socket keeps of the last session document it sent: the base of its next delta.

While the socket plays, the document is kept as it is, so that the next action neither
decompresses nor parses it (what the two cost: bench/README.md). Once the socket has not played
for `COOL_AFTER` seconds, and from the start for the document sent on connecting, it is kept
compressed (`session_delta.keep`, far smaller than the document as Python objects): a socket
waits far longer than it plays.
"""

from __future__ import annotations

import asyncio
from typing import Any

import orjson

from games.sessions import deltas as session_delta

COOL_AFTER = 2.0  # seconds without an action before the document is compressed


class LastSent:
    """The last session document a socket sent: as it is while it plays, compressed while it waits.
    Used on its socket's event loop only."""

    __slots__ = ("_document", "_kept", "_played_at", "_cooling")

    def __init__(self) -> None:
        self._document: dict[str, Any] | None = None
        self._kept: bytes | None = None
        self._played_at = 0.0
        self._cooling: asyncio.TimerHandle | None = None

    def frame(self, document: dict[str, Any], *, playing: bool, pushed: bool = False) -> bytes:
        """The frame that brings the client from the document sent last to `document` (the whole of
        it first), with `document` kept as the next one's base. `playing`: it answers an action;
        `pushed`: it answers nothing (the game changed elsewhere)."""
        before = self._document if self._document is not None else self._base_kept()
        frame, encoded = session_delta.next_frame(document, before, pushed=pushed)
        if playing:
            self._document, self._kept = document, None
            self._cool_later()
        else:
            self._document, self._kept = None, session_delta.keep(encoded)
        return frame

    def forget(self) -> None:
        """Nothing is kept: the next frame is the whole document (the client asked for it)."""
        self._document = self._kept = None

    def close(self) -> None:
        """The socket is closed: no compression is due any more."""
        if self._cooling is not None:
            self._cooling.cancel()
            self._cooling = None

    @property
    def compressed(self) -> bool:
        """Whether what is kept is compressed (nothing kept: also True)."""
        return self._document is None

    def _base_kept(self) -> dict[str, Any] | None:
        return None if self._kept is None else session_delta.kept_document(self._kept)

    def _cool_later(self) -> None:
        loop = asyncio.get_running_loop()
        self._played_at = loop.time()
        if self._cooling is None:  # one timer per spell of play, not one per action
            self._cooling = loop.call_later(COOL_AFTER, self._cool)

    def _cool(self) -> None:
        self._cooling = None
        loop = asyncio.get_running_loop()
        waited = loop.time() - self._played_at
        if waited < COOL_AFTER:  # it played meanwhile: look again when it may have stopped
            self._cooling = loop.call_later(COOL_AFTER - waited, self._cool)
            return
        if self._document is not None:
            self._kept, self._document = session_delta.keep(orjson.dumps(self._document)), None
