"""GET /api/leaderboards/{board}/par and .../par/replay: a published daily's par and its line."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.documents import refusals
from games.api.openapi import BOARD, STEP
from games.results.replays import par_line_document
from leaderboard.api.documents import ParDocument, ParReplayDocument
from leaderboard.par import par_document


class ParView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="daily_par",
        summary="A daily's par, who beat or matched it, and the candidates tried (404 until published)",
        parameters=[BOARD],
        responses={200: ParDocument, **refusals(400, 404, 429)},
    )
    def get(self, request: Request, board: str) -> Response:
        now = timezone.now()
        return Response(par_document(board, now=now))


class ParReplayView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="daily_par_replay",
        summary="Step through a certified daily's par line, the solver's winning line (404 until published)",
        parameters=[
            BOARD,
            STEP,
        ],
        responses={200: ParReplayDocument, **refusals(400, 404, 429)},
    )
    def get(self, request: Request, board: str) -> Response:
        step = request.query_params.get("step")
        return Response(par_line_document(board_id=board, step=step, now=timezone.now()))
