"""The one write of a verified result (games.results.store.store_verified), as a submission makes it.

StoredCode made once and reused, the result with its canonical log, the statistics, the board entry with
its sort key and version, the rank index and the live push after the commit; guests unranked.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings
from rest_framework.test import APIClient

from games import groups
from games.deals.codes import stored_code_for
from games.engine import GameCode
from games.models import Player, Result, StoredCode
from games.results.replay_verification import canonical, verify
from leaderboard.models import BoardEntry, BoardVersion, PlayerStats
from leaderboard.ranking import rank_index, standings
from tests.conftest import make_player
from tests.games.play_helpers import vector_log, winning_log
from tests.leaderboard.watchers import watching

CODE = "RU1-C-MFXTMVO"
BOARD = f"code:{CODE}"
LOG = winning_log(CODE)


@pytest.fixture(autouse=True)
def _fresh_board() -> None:
    if settings.REDIS_URL:
        rank_index.client().delete(*rank_index.keys(BOARD))


@pytest.fixture
def pushes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """What is pushed to the boards; someone watches BOARD meanwhile (an unwatched board gets no push
    where the layer can tell: games.groups.watched)."""
    sent: list[tuple[str, dict[str, Any]]] = []

    async def send(group: str, message: dict[str, Any]) -> None:
        sent.append((group, message))

    monkeypatch.setattr(groups, "send", send)
    with watching(groups.board_group(BOARD)):
        yield sent


def _client(player: Player) -> APIClient:
    client = APIClient()
    client.force_authenticate(player)
    return client


def _submit(player: Player, moves: list[str], code: str = CODE) -> dict[str, Any]:
    response = _client(player).post("/api/submissions", {"code": code, "moves": moves}, format="json")
    assert response.status_code == 201, response.content
    return dict(response.json()["result"])


def _rows(player: Player) -> list[tuple[Any, ...]]:
    return list(
        Result.objects.filter(player=player)
        .order_by("id")
        .values_list(
            "stored_code__code",
            "source",
            "board",
            "score",
            "moves",
            "won",
            "sequences",
            "cards_home",
            "elapsed_ms",
            "actions",
            "undos",
        )
    )


@pytest.mark.django_db(transaction=True)
def test_a_submission_stores_its_result_statistics_entry_and_pushes_after_commit(
    pushes: list[tuple[str, dict[str, Any]]],
) -> None:
    player = make_player("writer")
    answers = [_submit(player, moves) for moves in (LOG[:40], LOG, LOG[:90])]  # better, best, worse
    results = list(Result.objects.filter(player=player).order_by("id"))
    assert [a["id"] for a in answers] == [r.pk for r in results]
    assert StoredCode.objects.filter(code=CODE).count() == 1  # made by the first, found by the others
    assert {r.stored_code_id for r in results} == {stored_code_for(GameCode.parse(CODE)).pk}
    outcome = verify(CODE, LOG)
    best = results[1]
    assert (best.source, best.board, best.score, best.moves, best.won) == (
        "submission",
        BOARD,
        outcome.score,
        outcome.moves,
        True,
    )
    assert (best.cards_home, best.sequences, best.elapsed_ms) == (52, None, None)
    assert best.daily_id is None and best.session_id is None
    assert best.log == " ".join(outcome.tokens) and best.actions == len(LOG)
    assert best.finished_at <= best.verified_at
    stats = PlayerStats.objects.get(player=player, variant="RU1-C")
    assert (stats.games, stats.wins, stats.clean_wins, stats.best_score) == (3, 1, 1, None)  # Russian: no score
    assert (stats.best_cards_home, stats.best_moves) == (52, best.moves)
    entry = BoardEntry.objects.get(board=BOARD, player=player)
    assert entry.result_id == best.pk and entry.sort_key == standings.rank_key(best).sort_key()
    assert entry.version == BoardVersion.objects.get(board=BOARD).version == 2  # the worse one changed nothing
    # pushed after each commit that changed the entry, with its rank
    assert [(g, m["entry"]["result"], m["entry"]["rank"]) for g, m in pushes if g == groups.board_group(BOARD)] == [
        (groups.board_group(BOARD), results[0].pk, 1),
        (groups.board_group(BOARD), best.pk, 1),
    ]
    if settings.REDIS_URL:
        page = async_to_sync(rank_index.read_page)(BOARD, after=None, count=10, mine=None)
        assert (page.version, page.keys) == (2, [entry.sort_key])


@pytest.mark.django_db
def test_two_players_results_rank_on_the_board_and_its_clean_twin() -> None:
    one, other = make_player("statement"), make_player("orm")
    code = "SD1-S1-HJSZOZN"
    answers = [_submit(one, winning_log(code)[:n], code) for n in (30, 0)]
    orm_answers = [_submit(other, winning_log(code)[:n], code) for n in (30, 0)]
    assert _rows(one) == _rows(other)
    strip = [{k: v for k, v in a.items() if k not in ("id", "player", "verified_at")} for a in answers + orm_answers]
    assert strip[:2] == strip[2:]
    entries = [BoardEntry.objects.select_related("result").get(player=p, board=f"code:{code}") for p in (one, other)]
    assert [e.sort_key for e in entries] == [standings.rank_key(e.result).sort_key() for e in entries]
    assert [e.result_id for e in entries] == [answers[1]["id"], orm_answers[1]["id"]]  # the better: no moves yet
    assert [e.version for e in entries] == [2, 4]  # each player's two results both improved their entry
    # The 30-action log has an undo ("u" in the vector), the empty one none: only the latter ranks on the
    # clean twin, once per player.
    assert "U" in canonical(winning_log(code)[:30])
    twins = [BoardEntry.objects.get(player=p, board=f"code:{code}:clean") for p in (one, other)]
    assert [(t.result_id, t.sort_key, t.undos) for t in twins] == [(e.result_id, e.sort_key, 0) for e in entries]
    assert [t.version for t in twins] == [1, 2]
    counts = PlayerStats.objects.filter(variant="SD1-S1").order_by("player__username").values_list("games", "wins")
    assert list(counts) == [(2, 0), (2, 0)]


@pytest.mark.django_db
def test_a_guest_submission_counts_but_ranks_nowhere(pushes: list[tuple[str, dict[str, Any]]]) -> None:
    guest = Player.objects.create(username="~guest-1", is_guest=True)
    answer = _submit(guest, LOG)
    result = Result.objects.get(pk=answer["id"])
    assert result.board is None and answer["board"] is None and answer["player"] == "Guest"
    assert not BoardEntry.objects.exists() and not BoardVersion.objects.exists() and pushes == []
    assert PlayerStats.objects.get(player=guest).games == 1


@pytest.mark.django_db
def test_a_deal_made_before_is_the_one_used() -> None:
    deal = stored_code_for(GameCode.parse(CODE))
    answer = _submit(make_player("later"), LOG[:10])
    assert Result.objects.get(pk=answer["id"]).stored_code_id == deal.pk and StoredCode.objects.count() == 1


@pytest.mark.django_db
def test_a_refused_log_writes_nothing_not_even_its_deal() -> None:
    response = _client(make_player("refused")).post(
        "/api/submissions", {"code": "SD1-S4-AAAAAAA", "moves": ["1:1>2", "2:5>3"]}, format="json"
    )
    assert response.status_code == 422 and "error" in response.json()
    assert not Result.objects.exists() and not StoredCode.objects.exists() and not PlayerStats.objects.exists()


def test_canonical_texts_are_the_engines_and_are_remembered() -> None:
    tokens = vector_log("SP1-S1C-QTEKPFM")[:50]
    sloppy = [f" {token} " for token in tokens]  # the engine accepts surrounding spaces
    assert canonical(sloppy) == canonical(tokens) == tokens
    assert canonical(sloppy) == tokens  # the second time from what it remembered


_BODIES: list[object] = [
    {"code": CODE, "moves": ["D"]},
    {"code": CODE, "moves": [], "claimed_score": 12, "key": "k-1"},
    {"code": CODE, "moves": ["D"], "claimed_score": None, "key": None},
    {"code": CODE, "moves": [], "extra": True},  # an unknown field: the serializer names it
    {"code": " " + CODE, "moves": []},  # the serializer trims it
    {"code": CODE + "\n", "moves": []},
    {"code": "", "moves": []},
    {"code": "   ", "moves": []},
    {"code": "A" * 64, "moves": []},
    {"code": "A" * 65, "moves": []},
    {"code": "A\x00B", "moves": []},
    {"code": 5, "moves": []},
    {"code": None, "moves": []},
    {"code": CODE},
    {"moves": []},
    {"code": CODE, "moves": "D"},
    {"code": CODE, "moves": None},
    {"code": CODE, "moves": {"0": "D"}},
    {"code": CODE, "moves": [], "claimed_score": True},
    {"code": CODE, "moves": [], "claimed_score": 1.0},
    {"code": CODE, "moves": [], "claimed_score": "500"},
    {"code": CODE, "moves": [], "claimed_score": -(10**14)},
    {"code": CODE, "moves": [], "claimed_score": 10**1200},
    {"code": CODE, "moves": [], "key": ""},
    {"code": CODE, "moves": [], "key": " k"},
    {"code": CODE, "moves": [], "key": "k" * 128},
    {"code": CODE, "moves": [], "key": "k" * 129},
    {"code": CODE, "moves": [], "key": 3},
    [{"code": CODE, "moves": []}],
    "text",
    None,
]


@pytest.mark.parametrize("body", _BODIES)
def test_the_quick_check_accepts_only_what_the_serializer_accepts_unchanged(body: object) -> None:
    from games.api.serializers import SubmissionSerializer
    from games.api.views import _plainly_valid_submission

    quick = _plainly_valid_submission(body)
    serializer = SubmissionSerializer(data=body)
    if quick is None:
        return  # the serializer decides, as it always did
    assert serializer.is_valid(), serializer.errors
    validated = dict(serializer.validated_data)
    assert quick == {"claimed_score": None, "key": None, **validated}


def test_the_quick_check_takes_ordinary_submissions() -> None:
    from games.api.views import _plainly_valid_submission

    assert all(_plainly_valid_submission(body) is not None for body in _BODIES[:3])


@pytest.mark.django_db
def test_the_statements_read_the_new_result_id_from_the_sequence_postgresql_gave_the_column() -> None:
    """games.results.store names the id's sequence rather than look it up at each statement: the name must
    be the one PostgreSQL gave it (a renamed table keeps its old sequence's name)."""
    from django.db import connection

    from games.results.store import RESULT_SEQUENCE

    if connection.vendor != "postgresql":
        pytest.skip("SQLite reads the new id as the highest")
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_get_serial_sequence(%s, 'id')", [Result._meta.db_table])
        (sequence,) = cursor.fetchone()
    assert sequence.rpartition(".")[2] == RESULT_SEQUENCE
