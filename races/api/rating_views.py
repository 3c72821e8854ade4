"""The rated races over HTTP: a game's rating board, a race's rematch, a race's review."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.documents import RoomDocument, refusals
from games.api.openapi import STEP, cursor
from games.dailies import fair_play
from games.players import guests
from games.rooms import rooms
from races import rating_board, rematch, review
from races.api.documents import RaceLineDocument, RaceReviewDocument, RatingBoardDocument
from web import paging

ROOM_ID = OpenApiParameter("room_id", OpenApiTypes.UUID, OpenApiParameter.PATH)


class RatingBoardView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="rating_board",
        summary="A game's rating board from rated races, best first; provisional players listed apart",
        parameters=[
            OpenApiParameter("game", str, OpenApiParameter.PATH, enum=["SP", "SD", "RU"]),
            OpenApiParameter(
                "group", str, enum=list(rating_board.GROUPS), description="rated (default) or provisional"
            ),
            paging.limit_parameter(),
            OpenApiParameter("cursor", str, pattern=cursor(19), description="next_cursor of the previous page"),
        ],
        responses={200: RatingBoardDocument, **refusals(400, 404, 429)},
    )
    def get(self, request: Request, game: str) -> Response:
        query = request.query_params
        return Response(
            rating_board.rating_board(
                game=game,
                group=query.get("group"),
                limit=paging.limit(query.get("limit")),
                cursor=paging.cursor(query.get("cursor")),
            )
        )


class RematchView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="rematch",
        summary="Ask for a finished race's rematch (its players): the first opens the room, the others join it",
        parameters=[ROOM_ID],
        request=None,
        responses={200: RoomDocument, **refusals(403, 404, 409, 429)},
    )
    def post(self, request: Request, room_id: str) -> Response:
        player = guests.player(request)
        room = rematch.rematch(
            race_id=room_id,
            player=player,
            address=guests.client_address(request),
            origin=fair_play.origin_of(request),
        )
        return Response({**rooms.room_document(room), "you": rooms.you_in(room, player)})


class ReviewView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="race_review",
        summary="A finished race's review: where each player's game first left the solver's winning line",
        parameters=[ROOM_ID],
        responses={200: RaceReviewDocument, **refusals(404, 409, 429)},
    )
    def get(self, request: Request, room_id: str) -> Response:
        return Response(review.review_document(room_id=room_id))


class ReviewLineView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="race_solver_line",
        summary="Step through the solver's winning line for a finished race's deal (404 until found)",
        parameters=[ROOM_ID, STEP],
        responses={200: RaceLineDocument, **refusals(400, 404, 409, 429)},
    )
    def get(self, request: Request, room_id: str) -> Response:
        return Response(review.line_document(room_id=room_id, step=request.query_params.get("step")))
