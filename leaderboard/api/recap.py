"""GET /api/daily/recap: my ranked attempt at a daily, where it stands, and my streak in its variant."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.documents import refusals
from games.services import close_expired_dailies
from leaderboard.api import params
from leaderboard.api.documents import DailyRecapDocument
from leaderboard.recap import daily_recap
from web.errors import BadRequest


class DailyRecapView(APIView):
    permission_classes = [AllowAny]  # the player is checked below: 401 in words

    @extend_schema(
        operation_id="daily_recap",
        summary="My finished ranked attempt at a daily: result, ranks now, par when out, streak calendar",
        parameters=[
            OpenApiParameter("variant", OpenApiTypes.STR, required=True, description="a daily variant, like SP1-S4C"),
            OpenApiParameter("date", OpenApiTypes.DATE, description="YYYY-MM-DD (UTC); today by default"),
        ],
        responses={200: DailyRecapDocument, **refusals(400, 401, 404, 429)},
    )
    def get(self, request: Request) -> Response:
        player = params.player(request)
        now = timezone.now()
        text = request.query_params.get("date")
        try:
            date = dt.date.fromisoformat(text) if text else None
        except ValueError:
            raise BadRequest(gettext("The date must look like 2026-11-30.")) from None
        close_expired_dailies(now=now)  # the ranks and the par are of the final board once it is over
        return Response(daily_recap(player=player, variant=request.query_params.get("variant"), date=date, now=now))
