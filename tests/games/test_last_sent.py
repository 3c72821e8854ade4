"""games.sessions.last_sent: a socket keeps the document it sent as it is while it plays and compressed once
it waits, and its frames are the same either way."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest

from games.sessions import last_sent
from games.sessions.last_sent import LastSent
from tests.games.play_helpers import documents_of, follow


def frames_of(keeper: LastSent, documents: list[dict[str, Any]], *, playing: bool) -> list[bytes]:
    first = keeper.frame(documents[0], playing=False)  # the document sent on connecting
    return [first] + [keeper.frame(document, playing=playing) for document in documents[1:]]


@pytest.mark.parametrize("variant", ["SP1-S4C", "SD1-S1", "RU1-C"])
async def test_the_frames_are_the_same_whether_the_last_document_is_kept_compressed_or_not(variant: str) -> None:
    documents = documents_of(variant, 5, [3, 1, 4, 1, 5, 9, 2, 6, 5, 3])
    playing, waiting = LastSent(), LastSent()
    hot = frames_of(playing, documents, playing=True)
    cold = frames_of(waiting, documents, playing=False)
    assert hot == cold
    assert not playing.compressed and waiting.compressed
    held = None
    for frame, document in zip(hot, documents, strict=True):  # what the browser makes of them
        held = follow(held, orjson.loads(frame))
        assert held == document
    assert sum(orjson.loads(frame)["type"] == "delta" for frame in hot) == len(documents) - 1
    playing.close()


async def test_the_document_sent_on_connecting_is_kept_compressed_at_once() -> None:
    keeper = LastSent()
    keeper.frame(documents_of("SP1-S2C", 1, [])[0], playing=False)
    assert keeper.compressed


async def test_a_socket_that_stops_playing_keeps_its_document_compressed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(last_sent, "COOL_AFTER", 0.05)
    documents = documents_of("SP1-S4C", 9, [0, 1, 2, 3])
    keeper = LastSent()
    keeper.frame(documents[0], playing=False)
    for document in documents[1:3]:
        keeper.frame(document, playing=True)
        await asyncio.sleep(0.02)  # playing on, within the wait: kept as it is
        assert not keeper.compressed
    await asyncio.sleep(0.12)
    assert keeper.compressed
    held = follow(None, {"type": "session", **documents[2]})
    for document in documents[3:]:  # the next delta applies to the compressed copy
        held = follow(held, orjson.loads(keeper.frame(document, playing=True)))
        assert held == document
    keeper.close()


async def test_a_closed_socket_compresses_nothing_later(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(last_sent, "COOL_AFTER", 0.02)
    documents = documents_of("RU1-C", 2, [0])
    keeper = LastSent()
    keeper.frame(documents[0], playing=False)
    keeper.frame(documents[1], playing=True)
    keeper.close()
    await asyncio.sleep(0.06)
    assert not keeper.compressed  # the timer was cancelled: it did not run


async def test_a_forgotten_document_makes_the_next_frame_whole() -> None:
    documents = documents_of("SD1-S2", 4, [1, 2])
    keeper = LastSent()
    keeper.frame(documents[0], playing=False)
    assert orjson.loads(keeper.frame(documents[1], playing=True))["type"] == "delta"
    keeper.forget()
    assert orjson.loads(keeper.frame(documents[2], playing=True)) == {"type": "session", **documents[2]}
    keeper.close()
