"""The league's archive of past daily boards and the all-time boards per variant."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.documents import refusals
from games.api.openapi import date_parameter, variant_parameter
from games.ranking.boards import query_date
from leaderboard import league
from leaderboard.api import params
from leaderboard.api.documents import AllTimeDocument, ArchiveDocument


class DailyArchiveView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="daily_archive",
        summary="Past days' daily boards, newest first: how many ranked there and who leads",
        parameters=[
            date_parameter("before", "days before this date (next_before)"),
            variant_parameter("variant", "only this daily variant, like SP1-S4C", daily=True),
        ],
        responses={200: ArchiveDocument, **refusals(400, 429)},
    )
    def get(self, request: Request) -> Response:
        before = query_date(request.query_params.get("before"))
        today = timezone.now().astimezone(dt.UTC).date()
        variant = request.query_params.get("variant")
        return Response(league.daily_archive(today=today, before=before, variant=variant))


class AllTimeView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="all_time_board",
        summary="A variant's all-time board: best verified results, most wins, or longest daily streaks",
        parameters=[
            variant_parameter("variant", "like SP1-S4C", location="path", required=True),
            OpenApiParameter("by", OpenApiTypes.STR, enum=list(league.ORDERS), description="best (default)"),
            params.limit_parameter(),
        ],
        responses={200: AllTimeDocument, **refusals(400, 429)},
    )
    def get(self, request: Request, variant: str) -> Response:
        by = request.query_params.get("by", "best")
        return Response(league.all_time(variant=variant, by=by, limit=params.limit(request.query_params)))
