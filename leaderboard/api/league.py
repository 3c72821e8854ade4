"""The league's archive of past daily boards and the all-time boards per variant."""

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
from leaderboard import league
from leaderboard.api import params
from leaderboard.api.documents import AllTimeDocument, ArchiveDocument
from web.errors import BadRequest


class DailyArchiveView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="daily_archive",
        summary="Past days' daily boards, newest first: how many ranked there and who leads",
        parameters=[
            OpenApiParameter("before", OpenApiTypes.DATE, description="days before this date (next_before)"),
            OpenApiParameter("variant", OpenApiTypes.STR, description="only this daily variant, like SP1-S4C"),
        ],
        responses={200: ArchiveDocument, **refusals(400, 429)},
    )
    def get(self, request: Request) -> Response:
        text = request.query_params.get("before")
        try:
            before = dt.date.fromisoformat(text) if text else None
        except ValueError:
            raise BadRequest(gettext("The date must look like 2026-11-30.")) from None
        today = timezone.now().astimezone(dt.UTC).date()
        variant = request.query_params.get("variant") or None
        return Response(league.daily_archive(today=today, before=before, variant=variant))


class AllTimeView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="all_time_board",
        summary="A variant's all-time board: best verified results, most wins, or longest daily streaks",
        parameters=[
            OpenApiParameter("variant", OpenApiTypes.STR, OpenApiParameter.PATH, description="like SP1-S4C"),
            OpenApiParameter("by", OpenApiTypes.STR, enum=list(league.ORDERS), description="best (default)"),
            OpenApiParameter("limit", OpenApiTypes.INT, description="entries, 1-100 (default 50)"),
        ],
        responses={200: AllTimeDocument, **refusals(400, 429)},
    )
    def get(self, request: Request, variant: str) -> Response:
        by = request.query_params.get("by") or "best"
        return Response(league.all_time(variant=variant, by=by, limit=params.limit(request.query_params)))
