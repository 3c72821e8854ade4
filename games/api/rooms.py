"""Race rooms over HTTP: open one, look at it, join it, start it (host), end it (host)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.documents import RoomDocument, refusals
from games.api.openapi import BLANK, CODE, SPACE, VARIANT, padded
from games.dailies import fair_play
from games.models import Player
from games.players import guests
from games.rooms import rooms
from web.fields import ClosedSerializer, StrictCharField

ROOM_ID = OpenApiParameter("room_id", OpenApiTypes.UUID, OpenApiParameter.PATH)


class NewRoomSerializer(ClosedSerializer):
    variant = StrictCharField(
        required=False,
        max_length=32,
        trim_whitespace=False,
        help_text="a fresh deal of this variant, code hidden",
        pattern=padded(VARIANT, BLANK),
    )
    code = StrictCharField(required=False, help_text="this game code, shown to all", pattern=padded(CODE, SPACE))


def _answer(room_id: object, viewer: Player | None, code: int = status.HTTP_200_OK) -> Response:
    room = rooms.room_for(room_id)
    document: dict[str, Any] = {**rooms.room_document(room), "you": rooms.you_in(room, viewer)}
    return Response(document, status=code)


class RoomsView(APIView):
    permission_classes = [AllowAny]  # a browser without a player becomes a guest here (games.players.guests)

    @extend_schema(
        operation_id="create_room",
        summary="Open a race room on a fresh deal of a variant or on a game code (guests too)",
        request=NewRoomSerializer,
        responses={201: RoomDocument, **refusals(400, 401, 403, 422, 429)},
    )
    def post(self, request: Request) -> Response:
        data = NewRoomSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        address = guests.client_address(request)
        origin = fair_play.origin_of(request)
        host, room = guests.play_as(
            request,
            lambda player: (
                player,
                rooms.create_room(host=player, address=address, origin=origin, **data.validated_data),
            ),
        )
        return _answer(room.pk, host, status.HTTP_201_CREATED)


class RoomView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="room",
        summary="A race room: who is in it and how far each has got",
        parameters=[ROOM_ID],
        responses={200: RoomDocument, **refusals(404, 429)},
    )
    def get(self, request: Request, room_id: str) -> Response:
        return _answer(room_id, guests.viewer(request))


class JoinRoomView(APIView):
    permission_classes = [AllowAny]  # a browser without a player becomes a guest here

    @extend_schema(
        operation_id="join_room",
        summary="Join a room before its race starts (joining again changes nothing)",
        parameters=[ROOM_ID],
        request=None,
        responses={200: RoomDocument, **refusals(401, 403, 404, 409, 429)},
    )
    def post(self, request: Request, room_id: str) -> Response:
        origin = fair_play.origin_of(request)
        player, _ = guests.play_as(
            request, lambda player: (player, rooms.join_room(room_id=room_id, player=player, origin=origin))
        )
        return _answer(room_id, player)


class StartRoomView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="start_room",
        summary="Start the race (host only): every member gets a refereed session on the same deal",
        parameters=[ROOM_ID],
        request=None,
        responses={200: RoomDocument, **refusals(401, 403, 404, 409, 429)},
    )
    def post(self, request: Request, room_id: str) -> Response:
        player = guests.player(request)
        rooms.start_room(room_id=room_id, player=player)
        return _answer(room_id, player)


class EndRoomView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="end_room",
        summary=(
            "Call the race over (host only): the final table and the code are shown; not a race that would be"
            " rated while another racer plays (409)"
        ),
        parameters=[ROOM_ID],
        request=None,
        responses={200: RoomDocument, **refusals(401, 403, 404, 409, 429)},
    )
    def post(self, request: Request, room_id: str) -> Response:
        player = guests.player(request)
        rooms.end_room(room_id=room_id, player=player)
        return _answer(room_id, player)
