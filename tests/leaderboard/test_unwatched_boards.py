"""A change on a board nobody watches is indexed but not pushed: the push would reach no one."""

from __future__ import annotations

from typing import Any

import pytest
from channels.layers import InMemoryChannelLayer
from django.conf import settings
from rest_framework.test import APIClient

from leaderboard import groups, rank_index
from leaderboard.models import BoardVersion
from tests.conftest import make_player
from tests.leaderboard.factories import RUSSIAN_WIN, vector_log
from tests.leaderboard.watchers import watching

BOARD = f"code:{RUSSIAN_WIN}"
LOG = vector_log(RUSSIAN_WIN)


def _submit(client: APIClient, moves: list[str]) -> None:
    response = client.post("/api/submissions", {"code": RUSSIAN_WIN, "moves": moves}, format="json")
    assert response.status_code == 201, response.content


@pytest.mark.django_db(transaction=True)
def test_only_a_watched_board_is_pushed_and_every_change_is_indexed(monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(groups, "send", lambda group, message: sent.append((group, message)))
    client = APIClient()
    client.force_authenticate(make_player("unwatched"))
    _submit(client, LOG[:20])  # nobody watches
    with watching(groups.board_group(BOARD)):
        _submit(client, LOG[:60])  # a better one, watched
    _submit(client, LOG[:90])  # better again, nobody watches any more
    expected = [] if settings.REDIS_URL else [1]  # the in-memory layer cannot tell: it always sends
    assert [m["entry"]["rank"] for _, m in sent] == [*expected, 1, *expected]
    assert BoardVersion.objects.get(board=BOARD).version == 3
    if settings.REDIS_URL:
        page = rank_index.read_page(BOARD, after=None, count=5, mine=None)
        assert page.version == 3 and page.total == 1


def test_a_layer_that_cannot_tell_counts_every_group_as_watched(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(groups, "get_channel_layer", lambda: InMemoryChannelLayer())
    assert groups.watched("board.code.SP1-S4C-AAAAAAA")
    monkeypatch.setattr(groups, "get_channel_layer", lambda: None)
    assert not groups.watched("board.code.SP1-S4C-AAAAAAA")
