"""Where racers came from, for the races the server forms itself: a quick match and an accepted
challenge keep each racer's origin (keyed hashes of the device cookie and the address, never the
raw values), so two accounts of one device matched together make a race that is not rated."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.dailies.fair_play import keyed_hash
from games.models import Player, Room
from races import matching
from races.models import QueueEntry, RacerOrigin, RaceVerdict, Rating
from tests.leaderboard.factories import named
from tests.races.race_helpers import on_commit, play, walk

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.usefixtures("unlimited_actions"),
]
Capture = Callable[..., Any]
VARIANT = "SD1-S1"


@pytest.fixture(autouse=True)
def _quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    """This test runs the pass itself."""
    monkeypatch.setattr(matching, "matcher", type("Asleep", (), {"wake": staticmethod(lambda variant: None)})())


def _from(player: Player, device: str) -> APIClient:
    client = APIClient(REMOTE_ADDR=f"10.1.0.{player.pk % 250}")
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=player)[0].key}")
    client.cookies[settings.FAIR_PLAY_DEVICE_COOKIE] = device
    return client


def _race_to_the_end(capture: Capture, room: Room, racers: list[Player]) -> str:
    tokens = walk(room, 4)
    for racer, steps in zip(racers, (2, 4), strict=True):
        on_commit(capture, lambda racer=racer, steps=steps: play(room, racer, tokens[:steps]))
    return RaceVerdict.objects.get(room=room).reason


@pytest.mark.parametrize(("devices", "verdict"), [(("one-phone", "one-phone"), "linked"), (("a", "b"), "rated")])
def test_two_accounts_of_one_device_matched_together_make_a_race_not_rated(
    devices: tuple[str, str], verdict: str, django_capture_on_commit_callbacks: Capture
) -> None:
    racers = [named(), named()]
    for racer, device in zip(racers, devices, strict=True):
        asked = _from(racer, device).post("/api/match", {"variant": VARIANT}, format="json")
        assert asked.status_code == 202
    kept = QueueEntry.objects.get(player=racers[0])
    assert kept.device == keyed_hash("device", devices[0]) and devices[0] not in (kept.device, kept.address)
    long_enough = timezone.now() - dt.timedelta(seconds=matching.FILL_SECONDS)
    QueueEntry.objects.update(joined_at=long_enough)  # two may race once the first has waited this long
    (room,) = matching.run_pass(VARIANT)
    assert RacerOrigin.objects.filter(room=room).count() == 2
    assert _race_to_the_end(django_capture_on_commit_callbacks, room, racers) == verdict
    assert Rating.objects.exists() == (verdict == "rated")


@pytest.mark.parametrize(("devices", "verdict"), [(("one-phone", "one-phone"), "linked"), (("a", "b"), "rated")])
def test_two_accounts_of_one_device_in_a_challenge_make_a_race_not_rated(
    devices: tuple[str, str], verdict: str, django_capture_on_commit_callbacks: Capture
) -> None:
    challenger, invitee = named(), named()
    sent = _from(challenger, devices[0]).post(
        "/api/challenges", {"name": invitee.username, "variant": VARIANT}, format="json"
    )
    assert sent.status_code == 201
    accepted = _from(invitee, devices[1]).post(f"/api/challenges/{sent.json()['id']}/accept")
    assert accepted.status_code == 200
    room = Room.objects.get(pk=accepted.json()["room"])
    kept = dict(RacerOrigin.objects.filter(room=room).values_list("player_id", "device"))
    assert kept == {challenger.pk: keyed_hash("device", devices[0]), invitee.pk: keyed_hash("device", devices[1])}
    assert _race_to_the_end(django_capture_on_commit_callbacks, room, [challenger, invitee]) == verdict
