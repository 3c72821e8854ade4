"""GET /api/players/{name}: a player's page."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.documents import refusals
from games.api.openapi import cursor
from leaderboard.api import params
from leaderboard.api.documents import PlayerPageDocument
from leaderboard.profiles import PAGE_KEY_LENGTH, player_page

RESULTS_PER_PAGE = 20


class PlayerPageView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="player_page",
        summary="A player's statistics per variant, verified games (newest first) and chart series",
        parameters=[
            params.limit_parameter(RESULTS_PER_PAGE),
            OpenApiParameter(
                "cursor",
                OpenApiTypes.STR,
                pattern=cursor(PAGE_KEY_LENGTH),
                description="next_cursor of the previous page",
            ),
        ],
        responses={200: PlayerPageDocument, **refusals(400, 404, 429)},
    )
    def get(self, request: Request, name: str) -> Response:
        page = player_page(
            name=name,
            limit=params.limit(request.query_params, default=RESULTS_PER_PAGE),
            cursor=params.cursor(request.query_params),
            now=timezone.now(),
        )
        return Response(page)
