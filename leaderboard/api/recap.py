"""GET /api/daily/recap: my ranked attempt at a daily, where it stands, and my streak in its variant."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.documents import refusals
from games.api.openapi import date_parameter, variant_parameter
from games.ranking.boards import query_date
from leaderboard.api import params
from leaderboard.api.documents import DailyRecapDocument
from leaderboard.recap import daily_recap


class DailyRecapView(APIView):
    permission_classes = [AllowAny]  # the player is checked below: 401 in words

    @extend_schema(
        operation_id="daily_recap",
        summary="My finished ranked attempt at a daily: result, ranks now, par when out, streak calendar",
        parameters=[
            variant_parameter("variant", "a daily variant, like SP1-S4C", daily=True, required=True),
            date_parameter("date", "YYYY-MM-DD (UTC); today by default"),
        ],
        responses={200: DailyRecapDocument, **refusals(400, 401, 404, 429)},
    )
    def get(self, request: Request) -> Response:
        player = params.player(request)
        now = timezone.now()
        date = query_date(request.query_params.get("date"))
        return Response(daily_recap(player=player, variant=request.query_params.get("variant"), date=date, now=now))
