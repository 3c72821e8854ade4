"""A database of the release before Player, Result, Room and RoomMember moved to the referee (games)
upgrades in place: its rows are read through games.models, a new result is stored and ranked, and
no model change is left unapplied.

The fixture (fixtures/before_players_moved.sql) is `pg_dump --no-owner --inserts` of a database
migrated and played on by commit c9a0db3: two players, a refereed game and a submission on one
deal (so its board has two entries), a race room with both in it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from django.db import connections

from tests.loopback import database_url_of, service_env

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).with_name("fixtures") / "before_players_moved.sql"

# Run in the upgraded database by `manage.py shell`: what it prints is what the test checks.
READ_AND_PLAY = """
import json
from games.ranking.boards import parse_board
from games.models import Player, Result, Room
from games.results.submissions import submit_log
from leaderboard import selectors
from leaderboard.models import BoardEntry

alice = Player.objects.get(username="alice")
board = parse_board("code:SP1-S1C-AAAAAAB")
before = selectors.leaderboard(board=board, viewer=None)["total"]
old_results = sorted(Result.objects.values_list("player__username", "source"))
carol = Player.objects.create_user(username="carol", password="correct horse battery")
status, body = submit_log(player=carol, code="SP1-S1C-AAAAAAB", log=["D"])
after = selectors.leaderboard(board=board, viewer=carol)
room = Room.objects.get()
print(json.dumps({
    "alice": [alice.name_key, alice.check_password("correct horse battery"), alice.results.count()],
    "results": old_results,
    "room": [room.host.username, sorted(room.members.values_list("player__username", flat=True))],
    "entries_before": before,
    "stored": [status, body["result"]["player"], Result.objects.filter(player=carol).count()],
    "entries_after": after["total"],
    "carol_ranked": after["me"] is not None and after["me"]["result"] == body["result"]["id"],
    "carol_entry": BoardEntry.objects.filter(player=carol, board=board.id).exists(),
}))
"""


def _manage(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = service_env(database_url=url, redis_url="")
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=180
    )


@pytest.fixture
def old_database() -> Iterator[tuple[str, psycopg.Connection]]:
    """A fresh database holding the fixture; (its URL, a connection to it)."""
    settings_dict = dict(connections["default"].settings_dict)
    name = f"{settings_dict['NAME']}_upgrade"[:63]
    server = database_url_of({**settings_dict, "NAME": "postgres"})
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    url = database_url_of({**settings_dict, "NAME": name})
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(FIXTURE.read_text())  # no parameters: the whole dump in one simple query
            conn.execute("SELECT pg_catalog.set_config('search_path', 'public', false)")
            yield url, conn
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_the_fixture_is_the_old_layout(old_database: tuple[str, psycopg.Connection]) -> None:
    _, conn = old_database
    applied = conn.execute("SELECT app, name FROM django_migrations WHERE app IN ('games', 'leaderboard')").fetchall()
    assert ("leaderboard", "0009_player_name_key") in applied and ("games", "0006_certified_dailies") in applied
    assert ("games", "0007_players_results_rooms") not in applied
    assert conn.execute("SELECT count(*) FROM leaderboard_result").fetchone() == (2,)


def test_an_old_database_upgrades_in_place(old_database: tuple[str, psycopg.Connection]) -> None:
    url, _ = old_database
    migrated = _manage(url, "migrate", "--noinput")
    assert migrated.returncode == 0, migrated.stderr[-3000:]
    assert "games.0007_players_results_rooms... OK" in migrated.stdout
    assert "leaderboard.0010_results_rooms_moved... OK" in migrated.stdout
    checked = _manage(url, "makemigrations", "--check", "--dry-run")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    played = _manage(url, "shell", "-c", READ_AND_PLAY)
    assert played.returncode == 0, played.stderr[-3000:]
    seen = json.loads(played.stdout.strip().splitlines()[-1])
    assert seen["alice"] == ["allce", True, 1]  # the look-alike key made again, folded for case first
    assert seen["results"] == [["alice", "session"], ["bob", "submission"]]
    assert seen["room"] == ["alice", ["alice", "bob"]]
    assert seen["entries_before"] == 2
    assert seen["stored"] == [201, "carol", 1]
    assert seen["entries_after"] == 3 and seen["carol_ranked"] and seen["carol_entry"]


def test_a_database_short_of_the_previous_release_is_refused(old_database: tuple[str, psycopg.Connection]) -> None:
    url, conn = old_database
    # As if it had stopped before leaderboard 0009, which no longer adds the key (games.0001 does).
    conn.execute("ALTER TABLE leaderboard_player DROP COLUMN name_key")
    conn.execute("DELETE FROM django_migrations WHERE app = 'leaderboard' AND name = '0009_player_name_key'")
    migrated = _manage(url, "migrate", "--noinput")
    assert migrated.returncode != 0
    assert "apply the migrations of the previous release first" in migrated.stderr
    left = conn.execute("SELECT count(*) FROM django_migrations WHERE name = '0007_players_results_rooms'").fetchone()
    assert left == (0,)
