"""games.sessions.deltas: a delta merged into the document it was made from gives the new one, on
real games from the engine, and carries no card the new document does not show."""

from __future__ import annotations

import datetime as dt
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import ALL_VARIANTS, Game, GameCode
from games.selectors import session_document
from games.sessions.deltas import GONE, Unchangeable, changes_of, diff, keep, kept_document, merge, next_frame
from tests.games.play_helpers import CARD, START, documents_of, live_session


def assert_fair(change: Any, new: dict[str, Any]) -> None:
    """Every card a change names is one the new document shows, as often at most."""
    shown = CARD.findall(orjson.dumps(new).decode())
    for card in set(named := CARD.findall(orjson.dumps(change).decode())):
        assert named.count(card) <= shown.count(card), card


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(ALL_VARIANTS),
    number=st.integers(min_value=0, max_value=10_000),
    choices=st.lists(st.integers(min_value=0, max_value=1_000), min_size=1, max_size=40),
)
def test_a_delta_merged_into_the_last_document_gives_the_next(variant: str, number: int, choices: list[int]) -> None:
    docs = documents_of(variant, number, choices)
    for old, new in zip(docs, docs[1:], strict=False):
        old_copy = orjson.loads(orjson.dumps(old))
        change = diff(old, new)
        assert merge(old, change) == new
        assert old == old_copy  # merging makes a new document, the old one stays as it was
        assert_fair(change, new)
        # What goes on the wire, read back as the browser reads it.
        frame = orjson.loads(next_frame(new, old)[0])
        if frame["type"] == "delta":
            assert frame["base"] == old["actions"] and frame["actions"] == new["actions"]
            assert merge(old, changes_of(frame)) == new
        else:
            assert {key: value for key, value in frame.items() if key != "type"} == new


# JSON without floats (no NaN) and without booleans beside integers (1 == True in Python); its
# integers fit 64 bits, as orjson (which measures a change against the whole) requires.
JSON = st.recursive(
    st.none() | st.integers(min_value=-(2**63), max_value=2**63 - 1) | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.text(max_size=2).filter(lambda key: key != GONE), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(old=JSON, new=JSON)
def test_any_two_json_values(old: Any, new: Any) -> None:
    try:
        change = diff(old, new)
    except Unchangeable:
        return  # an array turned object somewhere: next_frame sends the whole document then
    assert merge(old, change) == new


def test_an_array_that_becomes_an_object_cannot_be_a_change() -> None:
    with pytest.raises(Unchangeable):
        diff({"a": [1]}, {"a": {"0": 1}})
    frame, _ = next_frame({"a": {"0": 1}, "actions": 1}, {"a": [1], "actions": 0})
    assert orjson.loads(frame)["type"] == "session"


def test_the_first_frame_is_the_whole_document_and_a_move_only_what_changed() -> None:
    docs = documents_of("SP1-S4C", 4, [0, 0, 0])
    first, encoded = next_frame(docs[0], None)
    assert orjson.loads(first) == {"type": "session", **docs[0]} and orjson.loads(encoded) == docs[0]
    frame, encoded = next_frame(docs[1], docs[0])
    delta = orjson.loads(frame)
    assert delta["type"] == "delta" and (delta["base"], delta["actions"]) == (0, 1)
    assert len(frame) * 3 < len(first)
    assert "id" not in delta and "table" not in delta  # unchanged: not sent
    assert orjson.loads(encoded) == docs[1]


@pytest.mark.parametrize("variant", ["SP1-S4C", "SP1-S1C", "SD1-S2", "RU1-C"])
def test_a_socket_keeps_the_document_it_sent_in_about_a_third_of_its_json(variant: str) -> None:
    for document in documents_of(variant, 11, [3, 1, 4, 1, 5, 9, 2, 6]):
        encoded = orjson.dumps(document)
        kept = keep(encoded)
        assert kept_document(kept) == document
        assert len(kept) * 100 < len(encoded) * 36, (variant, len(kept), len(encoded))


def test_a_race_going_from_face_down_to_dealt_is_a_delta_that_shows_the_cards() -> None:
    game = Game.from_code(GameCode.from_variant("SD1-S2", 7))
    before = session_document(live_session(game, actions=0, starts_later=True), game, now=START)
    after = session_document(live_session(game, actions=0), game, now=START + dt.timedelta(seconds=11))
    assert before["starts_in_ms"] > 0 and not before["legal"] and after["legal"]
    assert merge(before, diff(before, after)) == after


def test_keys_that_go_are_named_and_equal_values_send_nothing() -> None:
    assert diff({"best": {"1:1": "1:1>2", "2:1": "2:1>3"}}, {"best": {"2:1": "2:1>3"}}) == {"best": {GONE: ["1:1"]}}
    assert diff({"a": [1, 2, 3]}, {"a": [1, 2, 3]}) == {}
    assert diff(["3:1>4", "3:1>7", "D", "U"], ["3:1>7", "D", "5:1>2", "U"]) == [[0, 1, []], [2, 0, ["5:1>2"]]]


@pytest.mark.parametrize(
    ("old", "new", "splices"),
    [
        # Items that only come and go: one splice per run of them, at its index as the list stands.
        (
            ["1:1>2", "1:1>3", "2:1>5", "2:2>5", "3:1>4", "3:1>9", "4:1>6", "D"],
            ["1:1>2", "1:1>8", "2:1>5", "2:2>5", "3:1>4", "4:1>6", "7:1>1", "D"],
            [[1, 1, ["1:1>8"]], [5, 1, []], [6, 0, ["7:1>1"]]],
        ),
        (
            ["1:1>2", "1:1>3", "2:1>5", "2:2>5", "3:1>4", "3:1>9", "4:1>6", "D"],
            ["1:1>2", "2:1>5", "2:2>5", "3:1>4", "3:1>9", "D"],
            [[1, 1, []], [5, 1, []]],
        ),
        # An item that moved, or is there twice: still a change that gives the new list.
        (["a", "b", "c", "d", "e"], ["a", "d", "b", "c", "x"], None),
        (["a", "b", "b", "c"], ["a", "b", "c", "c"], None),
    ],
)
def test_a_list_of_tokens_changes_by_splices(old: list[str], new: list[str], splices: Any) -> None:
    change = diff(old, new)
    assert merge(old, change) == new
    if splices is not None:
        assert change == splices


def test_a_finish_fills_the_result_and_empties_the_hints() -> None:
    old = documents_of("RU1-C", 3, [1, 2, 3])[-1]
    result = {"id": 7, "score": old["view"]["score"], "moves": 3, "won": False, "rank": None}
    new = {**old, "finished": True, "finished_at": "2026-12-02T12:00:05+00:00", "legal": [], "best": {}, "tap": {}}
    new["result"] = result
    change = diff(old, new)
    assert merge(old, change) == new and change["result"] == result and change["legal"] == [[0, len(old["legal"]), []]]
