"""GET /api/leaderboards/{board}/par and .../par/replay: a published daily's par and its line."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.documents import refusals
from games.replays import par_line_document
from games.services import close_expired_dailies
from leaderboard.api.documents import ParDocument, ParReplayDocument
from leaderboard.par import par_document

_BOARD = OpenApiParameter(
    "board", OpenApiTypes.STR, OpenApiParameter.PATH, description="daily:<YYYY-MM-DD>:<variant>, or its :clean twin"
)


class ParView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="daily_par",
        summary="A daily's par, who beat or matched it, and the candidates tried (404 until published)",
        parameters=[_BOARD],
        responses={200: ParDocument, **refusals(400, 404, 429)},
    )
    def get(self, request: Request, board: str) -> Response:
        now = timezone.now()
        close_expired_dailies(now=now)  # the counts are of the final board
        return Response(par_document(board, now=now))


class ParReplayView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="daily_par_replay",
        summary="Step through a certified daily's par line, the solver's winning line (404 until published)",
        parameters=[
            _BOARD,
            OpenApiParameter("step", OpenApiTypes.INT, description="actions replayed, 0 to steps (default 0)"),
        ],
        responses={200: ParReplayDocument, **refusals(400, 404, 429)},
    )
    def get(self, request: Request, board: str) -> Response:
        step = request.query_params.get("step")
        return Response(par_line_document(board_id=board, step=step, now=timezone.now()))
