"""Quick match and challenges over HTTP (docs/api.md, "Rated races: quick match and challenges")."""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.documents import refusals
from games.api.openapi import BLANK, VARIANT, padded, text
from games.dailies import fair_play
from games.players import guests
from races import challenges, matching, selectors
from web.async_views import AsyncAPIView
from web.fields import ClosedSerializer, StrictCharField

CHALLENGE_ID = OpenApiParameter("challenge_id", OpenApiTypes.UUID, OpenApiParameter.PATH)

QueueDocument = inline_serializer(
    "QueueStatus",
    {
        "state": serializers.ChoiceField(choices=["waiting", "placed"]),
        "variant": serializers.CharField(),
        "waiting": serializers.IntegerField(help_text="players waiting for a race of this variant now"),
        "waited_ms": serializers.IntegerField(help_text="since you asked"),
        "room": serializers.UUIDField(allow_null=True, help_text="your race's room once placed: go there"),
    },
)

_CHALLENGE: dict[str, serializers.Field] = {
    "id": serializers.UUIDField(),
    "challenger": serializers.CharField(),
    "invitee": serializers.CharField(),
    "variant": serializers.CharField(),
    "state": serializers.ChoiceField(choices=["pending", "accepted", "declined", "expired"]),
    "created_at": serializers.DateTimeField(),
    "expires_at": serializers.DateTimeField(),
    "expires_in_ms": serializers.IntegerField(help_text="0 once expired"),
    "room": serializers.UUIDField(allow_null=True, help_text="the race's room once accepted"),
}
ChallengeDocument = inline_serializer("Challenge", _CHALLENGE)
ChallengeList = inline_serializer(
    "Challenges", {"challenges": inline_serializer("OpenChallenge", _CHALLENGE, many=True)}
)


class VariantSerializer(ClosedSerializer):
    variant = StrictCharField(max_length=32, trim_whitespace=False, pattern=padded(VARIANT, BLANK))


class NewChallengeSerializer(ClosedSerializer):
    name = StrictCharField(max_length=100, trim_whitespace=False, pattern=text(100), help_text="the invitee's name")
    variant = StrictCharField(max_length=32, trim_whitespace=False, pattern=padded(VARIANT, BLANK))


class QueueView(AsyncAPIView):  # async: a crowd asking at once waits on no thread or pooled connection
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="quick_match",
        summary=(
            "Ask for a rated race of a variant against players of close rating; ask again every few seconds "
            "while waiting (a silent player is dropped): your place as it is, or once placed, your race"
        ),
        request=VariantSerializer,
        responses={202: QueueDocument, 200: QueueDocument, **refusals(400, 401, 403, 409, 422, 429)},
    )
    async def post(self, request: Request) -> Response:
        data = VariantSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player, origin = guests.player(request), fair_play.origin_of(request)
        answer = await matching.ask(player=player, variant=data.validated_data["variant"], origin=origin)
        return Response(answer, status=status.HTTP_200_OK if answer["room"] else status.HTTP_202_ACCEPTED)

    @extend_schema(
        operation_id="quick_match_status",
        summary="Where your quick match stands (a look: it does not keep you in the queue)",
        responses={200: QueueDocument, **refusals(401, 404, 429)},
    )
    async def get(self, request: Request) -> Response:
        return Response(await sync_to_async(matching.status)(player=guests.player(request)))

    @extend_schema(
        operation_id="cancel_quick_match",
        summary="Stop waiting (refused once a race was formed for you)",
        responses={204: None, **refusals(401, 404, 409, 429)},
    )
    async def delete(self, request: Request) -> Response:
        await sync_to_async(matching.cancel)(player=guests.player(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ChallengesView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="create_challenge",
        summary="Challenge a player by name to a rated race of a variant (expires in 2 minutes)",
        request=NewChallengeSerializer,
        responses={201: ChallengeDocument, **refusals(400, 401, 403, 404, 422, 429)},
    )
    def post(self, request: Request) -> Response:
        data = NewChallengeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        origin = fair_play.origin_of(request)
        document = challenges.challenge(challenger=guests.player(request), origin=origin, **data.validated_data)
        return Response(document, status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="challenges",
        summary="Your challenges, sent and received, that can still be answered",
        responses={200: ChallengeList, **refusals(401, 429)},
    )
    def get(self, request: Request) -> Response:
        now = timezone.now()
        player = guests.player(request)
        found: list[dict[str, Any]] = [
            selectors.challenge_document(c, now=now) for c in selectors.open_challenges(player, now=now)
        ]
        return Response({"challenges": found})


class AcceptView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="accept_challenge",
        summary="Accept a challenge (the invitee): both race at once on a fresh hidden deal",
        parameters=[CHALLENGE_ID],
        request=None,
        responses={200: ChallengeDocument, **refusals(401, 403, 404, 409, 429)},
    )
    def post(self, request: Request, challenge_id: str) -> Response:
        origin = fair_play.origin_of(request)
        return Response(challenges.accept(player=guests.player(request), challenge_id=challenge_id, origin=origin))


class DeclineView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="decline_challenge",
        summary="Decline a challenge (the invitee)",
        parameters=[CHALLENGE_ID],
        request=None,
        responses={200: ChallengeDocument, **refusals(401, 403, 404, 409, 429)},
    )
    def post(self, request: Request, challenge_id: str) -> Response:
        return Response(challenges.decline(player=guests.player(request), challenge_id=challenge_id))
