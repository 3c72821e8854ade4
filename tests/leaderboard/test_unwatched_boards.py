"""A change on a board nobody watches is indexed but, where the layer can tell (the embedded default's,
which holds every member), not pushed: the push would reach no one. On Redis a push is one
PUBLISH whoever listens: every change is pushed."""

from __future__ import annotations

from typing import Any
from unittest.mock import patch

import pytest
from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, InMemoryChannelLayer
from django.conf import settings
from rest_framework.test import APIClient

from games import groups
from leaderboard.models import BoardVersion
from leaderboard.ranking import rank_index
from tests.conftest import make_player
from tests.leaderboard.factories import RUSSIAN_WIN, vector_log

BOARD = f"code:{RUSSIAN_WIN}"
LOG = vector_log(RUSSIAN_WIN)


def _submit(client: APIClient, moves: list[str]) -> None:
    response = client.post("/api/submissions", {"code": RUSSIAN_WIN, "moves": moves}, format="json")
    assert response.status_code == 201, response.content


@pytest.mark.django_db(transaction=True)
def test_only_a_watched_board_is_pushed_and_every_change_is_indexed(monkeypatch: pytest.MonkeyPatch) -> None:
    layer = InMemoryChannelLayer()
    monkeypatch.setattr(groups, "get_channel_layer", lambda: layer)
    sent: list[tuple[str, dict[str, Any]]] = []

    async def send(group: str, message: dict[str, Any]) -> None:
        sent.append((group, message))

    monkeypatch.setattr(groups, "send", send)
    client = APIClient()
    client.force_authenticate(make_player("unwatched"))
    _submit(client, LOG[:20])  # nobody watches
    async_to_sync(layer.group_add)(groups.board_group(BOARD), "watcher.stand-in")
    _submit(client, LOG[:60])  # a better one, watched
    async_to_sync(layer.group_discard)(groups.board_group(BOARD), "watcher.stand-in")
    _submit(client, LOG[:90])  # better again, nobody watches any more
    assert [(group, m["entry"]["rank"]) for group, m in sent] == [(groups.board_group(BOARD), 1)]
    assert BoardVersion.objects.get(board=BOARD).version == 3
    if settings.REDIS_URL:
        page = async_to_sync(rank_index.read_page)(BOARD, after=None, count=5, mine=None)
        assert page.version == 3 and page.total == 1


async def test_the_in_memory_layer_knows_its_watchers() -> None:
    layer = InMemoryChannelLayer()
    with patch.object(groups, "get_channel_layer", lambda: layer):
        assert not groups.watched("board.code.SP1-S4C-AAAAAAA")
        await layer.group_add("board.code.SP1-S4C-AAAAAAA", "watcher.one")
        assert groups.watched("board.code.SP1-S4C-AAAAAAA")
        assert not groups.watched("board.code.SP1-S4C-AAAAAAB")
        await layer.group_discard("board.code.SP1-S4C-AAAAAAA", "watcher.one")
        assert not groups.watched("board.code.SP1-S4C-AAAAAAA")


def test_a_layer_that_cannot_tell_counts_every_group_as_watched(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(groups, "get_channel_layer", lambda: BaseChannelLayer())
    assert groups.watched("board.code.SP1-S4C-AAAAAAA")
    monkeypatch.setattr(groups, "get_channel_layer", lambda: None)
    assert not groups.watched("board.code.SP1-S4C-AAAAAAA")
