"""Rated races on the real services: a finished fair race rates its racers once, from its final
table; the races that are not rated and why; the board, the player page, the rematch (the review:
test_race_review.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import groups
from games.models import Player, Result, Room
from games.ranking.keys import encode_cursor
from games.rooms import rooms
from races import ratings
from races.models import RaceVerdict, Rating, RatingChange, Rematch
from tests.leaderboard.factories import SPIDERETTE_WIN, named, vector_log
from tests.races.race_helpers import on_commit, open_race, origin, play, session_of, walk

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.usefixtures("unlimited_actions"),
]
Capture = Callable[..., Any]


def _as(player: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=player)[0].key}")
    return client


def _finished_race(capture: Capture, steps: list[int], **kwargs: Any) -> tuple[Room, list[Player]]:
    """A race whose racers play `steps` legal actions each, then give up, the last ending it."""
    room, racers = open_race(len(steps), **kwargs)
    tokens = walk(room, max(steps))
    for racer, count in zip(racers, steps, strict=True):
        on_commit(capture, lambda racer=racer, count=count: play(room, racer, tokens[:count]))
    room.refresh_from_db()
    assert room.state == Room.State.FINISHED
    return room, racers


def test_a_finished_race_rates_every_racer_once_from_the_final_tables_order(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    room, racers = _finished_race(django_capture_on_commit_callbacks, [2, 9, 5])
    table = rooms.room_document(room)
    assert table["rated"] == "rated"
    names = [row["player"] for row in table["players"]]
    changes = {c.player.display_name: c for c in RatingChange.objects.filter(room=room).select_related("player")}
    assert [changes[name].place for name in names] == [1, 2, 3]  # the order the final table shows
    assert all(c.racers == 3 and c.game == "SD" for c in changes.values())
    first, last = changes[names[0]], changes[names[-1]]
    assert first.mu_after > first.mu_before and last.mu_after < last.mu_before
    assert all(c.sigma_after < c.sigma_before for c in changes.values())
    stored = {r.player_id: r for r in Rating.objects.filter(game="SD")}
    assert {r.races for r in stored.values()} == {1} and set(stored) == {r.pk for r in racers}
    assert stored[first.player_id].mu == first.mu_after

    again = ratings.rate_race(room_id=room.pk, called_off=False)  # the end heard twice rates nothing more
    assert again is not None and again.rated
    assert (
        RatingChange.objects.filter(room=room).count() == 3
        and Rating.objects.get(pk=first.player_id and stored[first.player_id].pk).races == 1
    )


def test_a_won_game_places_first_and_the_next_race_starts_from_the_last_rating(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    room, (loser, winner) = open_race(2, code=SPIDERETTE_WIN)
    capture = django_capture_on_commit_callbacks
    on_commit(capture, lambda: play(room, loser, walk(room, 30)))  # many moves, no win
    on_commit(capture, lambda: play(room, winner, vector_log(SPIDERETTE_WIN)))
    assert session_of(room, winner).won
    places = dict(RatingChange.objects.filter(room=room).values_list("player_id", "place"))
    assert places == {winner.pk: 1, loser.pk: 2}
    before = Rating.objects.get(player=winner, game="SD")

    again = rooms.create_room(host=winner, variant="SD1-S1", origin=origin("w"))
    rooms.join_room(room_id=again.pk, player=loser, origin=origin("l"))
    rooms.start_room(room_id=again.pk, player=winner)
    again.refresh_from_db()
    tokens = walk(again, 6)
    on_commit(capture, lambda: play(again, winner, tokens[:2]))
    on_commit(capture, lambda: play(again, loser, tokens[:6]))
    change = RatingChange.objects.get(room=again, player=winner)
    assert (change.mu_before, change.sigma_before) == (before.mu, before.sigma)
    assert Rating.objects.get(player=winner, game="SD").races == 2


@pytest.mark.parametrize(
    ("why", "setup"),
    [
        ("known_code", {"code_room": True}),
        ("linked", {"same_device": True}),
        ("too_few", {"guest": True}),
    ],
)
def test_races_that_are_not_rated_say_why_and_rate_nobody(
    why: str, setup: dict[str, bool], django_capture_on_commit_callbacks: Capture
) -> None:
    capture = django_capture_on_commit_callbacks
    host, rival = named(), named(guest=setup.get("guest", False))
    shared = origin("one-phone")
    if setup.get("code_room"):
        room = rooms.create_room(host=host, code="SD1-S1-AAAAAAD", origin=origin("a"))
    else:
        room = rooms.create_room(
            host=host, variant="SD1-S1", origin=shared if setup.get("same_device") else origin("a")
        )
    rooms.join_room(room_id=room.pk, player=rival, origin=shared if setup.get("same_device") else origin("b"))
    rooms.start_room(room_id=room.pk, player=host)
    room.refresh_from_db()
    tokens = walk(room, 4)
    on_commit(capture, lambda: play(room, host, tokens[:2]))
    on_commit(capture, lambda: play(room, rival, tokens))
    assert RaceVerdict.objects.get(room=room).reason == why
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert rooms.room_document(Room.objects.get(pk=room.pk))["rated"] == why


def test_the_host_cannot_end_a_race_that_would_be_rated_while_another_racer_plays(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    capture = django_capture_on_commit_callbacks
    room, (host, rival) = open_race(2)
    tokens = walk(room, 4)
    on_commit(capture, lambda: play(room, host, tokens[:1]))  # the host gives up early ...
    on_commit(capture, lambda: play(room, rival, tokens, finish=False))  # ... the rival plays on
    assert _as(host).get(f"/api/rooms/{room.pk}").json()["host_may_end"] is False
    with capture(execute=True):
        refused = _as(host).post(f"/api/rooms/{room.pk}/end")
    assert refused.status_code == 409
    assert refused.json()["error"]["message"] == (
        "A rated race cannot be ended early: it ends when everyone has finished, or 30 minutes after its start."
    )
    assert Room.objects.get(pk=room.pk).state == Room.State.RACING
    assert session_of(room, rival).finished_at is None and not Result.objects.filter(session__player=rival).exists()
    assert not RaceVerdict.objects.exists() and not RatingChange.objects.exists()

    on_commit(capture, lambda: play(room, rival, []))  # the rival finishes: the race ends, rated
    assert RaceVerdict.objects.get(room=room).reason == "rated"
    assert RatingChange.objects.filter(room=room).count() == 2


def test_the_host_playing_on_alone_may_end_the_race_which_is_rated(django_capture_on_commit_callbacks: Capture) -> None:
    capture = django_capture_on_commit_callbacks
    room, (host, rival) = open_race(2)
    tokens = walk(room, 4)
    on_commit(capture, lambda: play(room, rival, tokens))
    on_commit(capture, lambda: play(room, host, tokens[:2], finish=False))
    assert _as(host).get(f"/api/rooms/{room.pk}").json()["host_may_end"] is True
    with capture(execute=True):
        ended = _as(host).post(f"/api/rooms/{room.pk}/end")
    assert ended.status_code == 200 and ended.json()["state"] == "finished"
    assert RaceVerdict.objects.get(room=room).reason == "rated"  # as if the host had given up
    assert RatingChange.objects.filter(room=room).count() == 2


def test_the_host_ends_a_race_on_a_known_code_while_someone_plays_and_it_is_not_rated(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    capture = django_capture_on_commit_callbacks
    host, rival = named(), named()
    room = rooms.create_room(host=host, code="SD1-S1-AAAAAAD", origin=origin("a"))
    rooms.join_room(room_id=room.pk, player=rival, origin=origin("b"))
    rooms.start_room(room_id=room.pk, player=host)
    tokens = walk(room, 4)
    on_commit(capture, lambda: play(room, host, tokens))
    on_commit(capture, lambda: play(room, rival, tokens[:2], finish=False))
    assert _as(host).get(f"/api/rooms/{room.pk}").json()["host_may_end"] is True
    with capture(execute=True):
        ended = _as(host).post(f"/api/rooms/{room.pk}/end")
    assert ended.status_code == 200 and ended.json()["state"] == "finished"
    assert not any(row["out_of_time"] for row in ended.json()["players"])  # called off, not out of time
    assert RaceVerdict.objects.get(room=room).reason == "called_off"
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_the_rating_board_ranks_by_rating_keeps_provisional_players_apart_and_pages(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    from django.utils import timezone

    now = timezone.now()
    players = [named(f"rater{n}") for n in range(4)]
    for player, (mu, races) in zip(players, [(30.0, 6), (35.0, 5), (20.0, 9), (40.0, 2)], strict=True):
        Rating.objects.create(player=player, game="RU", mu=mu, sigma=3.0, races=races, updated_at=now)
    api = APIClient()
    board = api.get("/api/ratings/RU").json()
    assert [(e["rank"], e["player"]) for e in board["entries"]] == [(1, "rater1"), (2, "rater0"), (3, "rater2")]
    assert board["entries"][0]["rating"] == 35 * 60 and board["entries"][0]["uncertainty"] == 360
    assert not any(e["provisional"] for e in board["entries"])
    apart = api.get("/api/ratings/RU", {"group": "provisional"}).json()
    assert [(e["player"], e["provisional"]) for e in apart["entries"]] == [("rater3", True)]
    first = api.get("/api/ratings/RU", {"limit": 2}).json()
    second = api.get("/api/ratings/RU", {"limit": 2, "cursor": first["next_cursor"]}).json()
    assert [(e["rank"], e["player"]) for e in second["entries"]] == [(3, "rater2")] and second["next_cursor"] is None
    assert api.get("/api/ratings/SP").json()["entries"] == []
    past = api.get("/api/ratings/RU", {"cursor": encode_cursor("9" * 19)}).json()  # any place: past the end
    assert past["entries"] == [] and past["next_cursor"] is None
    for query, status, words in [
        ({"group": "best"}, 400, "group is"),
        ({"limit": "0"}, 400, "limit is a whole number"),
        ({"cursor": "MDAw"}, 400, "cursor is not valid"),  # three digits: not one this board makes
    ]:
        refused = api.get("/api/ratings/RU", query)
        assert refused.status_code == status and words in refused.json()["error"]["message"]
    missing = api.get("/api/ratings/XX")
    assert missing.status_code == 404 and "SP, SD and RU" in missing.json()["error"]["message"]


def test_the_player_page_shows_each_rating_with_its_history(django_capture_on_commit_callbacks: Capture) -> None:
    room, racers = _finished_race(django_capture_on_commit_callbacks, [3, 7])
    winner = RatingChange.objects.get(room=room, place=1).player
    page = APIClient().get(f"/api/players/{winner.username}").json()
    (sd,) = page["ratings"]
    rating = Rating.objects.get(player=winner, game="SD")
    assert (sd["game"], sd["races"], sd["provisional"]) == ("SD", 1, True)
    assert sd["rating"] == round(rating.mu * 60) > 1500 and sd["uncertainty"] == round(rating.sigma * 120)
    assert [(p["place"], p["racers"], p["room"], p["rating"]) for p in sd["history"]] == [
        (1, 2, str(room.pk), sd["rating"])
    ]


def test_a_rematch_opens_a_new_hidden_room_for_the_same_players_one_tap_each(
    django_capture_on_commit_callbacks: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    pushed: list[tuple[str, dict[str, Any]]] = []

    async def send(group: str, message: dict[str, Any]) -> None:
        if message["type"] == "room.update":
            pushed.append((group, message["room"]))

    monkeypatch.setattr(groups, "send", send)
    capture = django_capture_on_commit_callbacks
    room, (host, rival) = _finished_race(capture, [2, 5])
    assert rooms.room_document(room)["rematch"] is None
    pushed.clear()
    with capture(execute=True):
        first = _as(rival).post(f"/api/rooms/{room.pk}/rematch")
    assert first.status_code == 200
    new = first.json()
    assert (new["state"], new["code"], new["variant"], new["you"]["host"]) == ("lobby", None, "SD1-S1", True)
    assert Room.objects.get(pk=new["id"]).code_secret and Room.objects.get(pk=new["id"]).code != room.code
    race_pushes = [doc for group, doc in pushed if group == groups.room_group(room.pk)]
    assert race_pushes and race_pushes[-1]["rematch"] == {
        "room": new["id"],
        "state": "lobby",
        "players": [rival.username],
    }

    with capture(execute=True):
        second = _as(host).post(f"/api/rooms/{room.pk}/rematch")
    assert second.status_code == 200 and second.json()["id"] == new["id"] and not second.json()["you"]["host"]
    race_pushes = [doc for group, doc in pushed if group == groups.room_group(room.pk)]
    assert race_pushes[-1]["rematch"]["players"] == [rival.username, host.username]
    assert Rematch.objects.count() == 1 and Room.objects.get(pk=new["id"]).members.count() == 2


def test_a_rematch_is_refused_in_words_before_the_end_and_to_outsiders() -> None:
    room, (host, rival) = open_race(2)
    before = Room.objects.count()
    early = _as(rival).post(f"/api/rooms/{room.pk}/rematch")
    assert early.status_code == 409 and "once the race is over" in early.json()["error"]["message"]
    Room.objects.filter(pk=room.pk).update(state=Room.State.FINISHED)
    outsider = _as(named()).post(f"/api/rooms/{room.pk}/rematch")
    assert outsider.status_code == 403 and "Only the players of this race" in outsider.json()["error"]["message"]
    assert _as(host).post("/api/rooms/not-a-room/rematch").status_code == 404
    assert APIClient().post(f"/api/rooms/{room.pk}/rematch").status_code == 401
    assert Room.objects.count() == before and not Rematch.objects.exists()
