"""GET /api/leaderboards/{board}: a page of a board, my entry, or the entries around me."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.http import QueryDict
from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.documents import refusals
from games.boards import Board, parse_board
from games.services import close_expired_dailies, expired_daily_attempt_sql
from leaderboard import loop_reads, selectors
from leaderboard.api import params
from leaderboard.api.documents import LeaderboardDocument
from web import loop_http, storage
from web.errors import BadRequest


class LeaderboardView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="leaderboard",
        summary="A leaderboard: each player's best verified result, best first",
        parameters=[
            OpenApiParameter(
                "board",
                OpenApiTypes.STR,
                OpenApiParameter.PATH,
                description="code:<game code> or daily:<YYYY-MM-DD>:<variant>, either followed by :clean "
                "for its clean twin (each player's best result without an undo)",
            ),
            OpenApiParameter("limit", OpenApiTypes.INT, description="entries per page, 1-100 (default 50)"),
            OpenApiParameter("cursor", OpenApiTypes.STR, description="next_cursor of the previous page"),
            OpenApiParameter(
                "around",
                OpenApiTypes.STR,
                enum=["me"],
                description="me: the page centred on my entry (the top if I have none)",
            ),
        ],
        responses={200: LeaderboardDocument, **refusals(400, 404, 429)},
    )
    def get(self, request: Request, board: str) -> Response:
        now = timezone.now()
        read = _read_of(board, request.query_params, now)
        if read.board.date is not None:
            # A daily's board is final from 01:00 the next day: attempts still open end first.
            close_expired_dailies(now=now)
        document = selectors.leaderboard(
            board=read.board,
            viewer=params.viewer(request),
            limit=read.limit,
            cursor=read.cursor,
            around_me=read.around_me,
        )
        return Response(document)


async def read_on_loop(request: loop_http.Request, board: str) -> loop_http.Answer:
    """LeaderboardView.get on the event loop (web/loop_http.py), for a caller by token or nobody."""
    now = timezone.now()
    read = _read_of(board, request.query, now)
    if read.board.date is not None:
        sql, sql_params = expired_daily_attempt_sql(now)
        if await storage.fetchone(sql, sql_params) is not None:
            raise loop_http.Handover()  # attempts to close first: Django's path does it
    viewer = selectors.player_id_of(request.player)
    document = await loop_reads.board(
        read.board, viewer, limit=read.limit, cursor=read.cursor, around_me=read.around_me
    )
    return loop_http.Answer(200, document)


@dataclass(frozen=True, slots=True)
class _Read:
    board: Board
    limit: int
    cursor: str | None
    around_me: bool


def _read_of(board: str, query: QueryDict, now: dt.datetime) -> _Read:
    """What the request asks for, checked (BadRequest and NotFound name what is wrong)."""
    around = query.get("around")
    if around not in (None, "me"):
        raise BadRequest(gettext('around takes one value: "me".'))
    return _Read(
        board=parse_board(board, today=now.date()),
        limit=params.limit(query),
        cursor=params.cursor(query),
        around_me=around == "me",
    )
