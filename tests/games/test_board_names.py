"""Board ids read once per text (games/ranking/boards.py keeps each text's board): the same answer every
time, a daily's date still judged against the day asked, and a refusal worded in each caller's
language rather than the first caller's."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import translation

from games.ranking.boards import parse_board
from web.errors import BadRequest, NotFound

DAY = dt.date(2026, 11, 30)


def test_a_text_read_again_names_the_same_board_in_any_letter_case() -> None:
    first = parse_board("code:sp1-s4c-aaaaaad:CLEAN")
    again = parse_board("code:sp1-s4c-aaaaaad:CLEAN")
    assert first == again and first.id == "code:SP1-S4C-AAAAAAD:clean" and first.clean
    assert parse_board("CODE:SP1-S4C-AAAAAAD").id == "code:SP1-S4C-AAAAAAD"


def test_a_daily_is_judged_against_the_day_asked_each_time() -> None:
    board = f"daily:{DAY + dt.timedelta(days=1)}:SP1-S4C"
    with pytest.raises(NotFound):
        parse_board(board, today=DAY)  # tomorrow's deal does not exist yet
    assert parse_board(board, today=DAY + dt.timedelta(days=1)).date == DAY + dt.timedelta(days=1)
    with pytest.raises(NotFound):
        parse_board(board, today=DAY)  # and the day after it was found, the earlier day still refuses


@pytest.mark.parametrize("text", ["garbage", "code:SP1-NOPE", "daily:2026-13-01:SP1-S4C", "league:x"])
def test_a_refusal_is_worded_in_each_callers_language(text: str) -> None:
    worded: dict[str, set[str]] = {}
    for language in ("fi", "en", "fi"):
        with translation.override(language), pytest.raises(BadRequest) as refused:
            parse_board(text, today=DAY)
        worded.setdefault(language, set()).add(refused.value.message)
    assert len(worded["fi"]) == 1 and worded["fi"] != worded["en"]
