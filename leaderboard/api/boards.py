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

from games.api.documents import refusals
from games.api.openapi import BOARD, cursor
from games.ranking.boards import Board, parse_board
from games.ranking.keys import KEY_LENGTH
from leaderboard import selectors
from leaderboard.api import params
from leaderboard.api.documents import LeaderboardDocument
from web.async_views import AsyncAPIView
from web.errors import BadRequest


class LeaderboardView(AsyncAPIView):  # async: the hottest read, served on the event loop
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="leaderboard",
        summary="A leaderboard: each player's best verified result, best first",
        parameters=[
            BOARD,
            params.limit_parameter(),
            OpenApiParameter(
                "cursor", OpenApiTypes.STR, pattern=cursor(KEY_LENGTH), description="next_cursor of the previous page"
            ),
            OpenApiParameter(
                "around",
                OpenApiTypes.STR,
                enum=["me"],
                description="me: the page centred on my entry (the top if I have none)",
            ),
        ],
        responses={200: LeaderboardDocument, **refusals(400, 404, 429)},
    )
    async def get(self, request: Request, board: str) -> Response:
        now = timezone.now()
        read = _read_of(board, request.query_params, now)
        viewer = selectors.player_id_of(params.viewer(request))
        document = await selectors.read_board(
            read.board, viewer, limit=read.limit, cursor=read.cursor, around_me=read.around_me
        )
        return Response(document)


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
