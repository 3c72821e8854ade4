"""A race starts with a countdown: until the go every card is face down, no action is taken and
the clock has not started; then the game is the room's deal for everyone at once."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games import selectors, services
from games.models import GameAction, Player
from games.rooms import rooms
from tests.leaderboard.factories import named
from tests.security.snapshot import snapshot


@pytest.mark.django_db
def test_until_the_go_the_cards_are_face_down_and_no_action_is_taken(settings) -> None:
    settings.RACE_COUNTDOWN_SECONDS = 3
    host: Player = named("hostess")
    room = rooms.create_room(host=host, code="SD1-S1-AAAAAAD")
    start = timezone.now()
    rooms.start_room(room_id=room.pk, player=host, now=start)
    member = room.members.get()
    session = selectors.session_for(player=host, session_id=member.session_id)
    assert session.started_at == start + dt.timedelta(seconds=3)

    early = selectors.session_document(session, services.live.game_for(session), now=start + dt.timedelta(seconds=1))
    assert early["starts_in_ms"] == 2000 and early["elapsed_ms"] == 0 and early["room"] == str(room.pk)
    assert early["legal"] == [] and early["best"] == {} and early["tap"] == {}
    assert all(column["up"] == [] for column in early["view"]["columns"])
    assert sum(column["down"] for column in early["view"]["columns"]) == 28

    client = APIClient()
    client.force_authenticate(host)
    before = snapshot()
    refused = client.post(f"/api/sessions/{session.id}/actions", {"action": "D"}, format="json")
    assert refused.status_code == 409 and "The race starts in" in refused.json()["error"]["message"]
    why = client.get(f"/api/sessions/{session.id}/why", {"group": "7:1"})
    assert why.status_code == 409
    assert snapshot() == before
    assert rooms.room_document(rooms.room_for(room.pk))["starts_in_ms"] > 0

    later = start + dt.timedelta(seconds=3, milliseconds=10)
    go = selectors.session_document(session, services.live.game_for(session), now=later)
    assert go["starts_in_ms"] == 0 and go["legal"] and go["view"]["columns"][6]["up"]
    services.apply_action(player=host, session_id=session.id, token="D", now=later)
    assert GameAction.objects.filter(session=session).count() == 1
