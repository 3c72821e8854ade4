"""GET /api/leaderboards/{board}: a page of a board, my entry, or the entries around me."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.documents import refusals
from games.boards import parse_board
from games.services import close_expired_dailies
from leaderboard import selectors
from leaderboard.api import params
from leaderboard.api.documents import LeaderboardDocument
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
        around = request.query_params.get("around")
        if around not in (None, "me"):
            raise BadRequest(gettext('around takes one value: "me".'))
        now = timezone.now()
        the_board = parse_board(board, today=now.date())
        if the_board.date is not None:
            # A daily's board is final from 01:00 the next day: attempts still open end first.
            close_expired_dailies(now=now)
        document = selectors.leaderboard(
            board=the_board,
            viewer=params.viewer(request),
            limit=params.limit(request),
            cursor=params.cursor(request),
            around_me=around == "me",
        )
        return Response(document)
