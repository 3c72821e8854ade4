"""GET /api/results/{id}/replay?step=N: a verified game after N actions, every card shown."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.documents import refusals
from games.api.openapi import STEP
from games.results.replays import replay_document
from leaderboard.api.documents import ReplayDocument


class ReplayView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="result_replay",
        summary="Step through a verified game (a daily's only once its day is over)",
        parameters=[
            OpenApiParameter("result_id", OpenApiTypes.INT, OpenApiParameter.PATH),
            STEP,
        ],
        responses={200: ReplayDocument, **refusals(400, 404, 429)},
    )
    def get(self, request: Request, result_id: str) -> Response:
        document = replay_document(result_id=result_id, step=request.query_params.get("step"), now=timezone.now())
        return Response(document)
