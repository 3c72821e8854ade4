"""The play API (docs/api.md): thin views over games.services and games.selectors."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext, gettext_noop
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors, services
from games.api import documents
from games.api.openapi import WHY_QUESTION, date_parameter
from games.api.serializers import ActionSerializer, StartSessionSerializer, SubmissionSerializer
from games.dailies import fair_play, schedule
from games.deals import variants
from games.deals.codes import MAX_CODE_CHARS
from games.models import Player
from games.players import guests
from games.ranking.boards import query_date
from games.results import submissions
from games.sessions import live, why
from web import ratelimit
from web.async_views import AsyncAPIView
from web.errors import BadRequest


def _player(request: Request) -> Player:
    assert isinstance(request.user, Player)  # IsAuthenticated ran first
    return request.user


def _valid(serializer_class: type, request: Request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class SessionsView(APIView):
    permission_classes = [AllowAny]  # a browser without a player becomes a guest here (games.players.guests)

    @extend_schema(
        parameters=[
            OpenApiParameter("open", str, enum=["1"], required=True, description="1: my unfinished games"),
        ],
        responses={200: documents.OpenSessionsDocument, **documents.REFUSALS},
        operation_id="open_sessions",
        summary="My unfinished games that can still be played, newest first (a few at most; no race games)",
    )
    def get(self, request: Request) -> Response:
        player = guests.player(request)
        if request.query_params.get("open") != "1":
            raise BadRequest(gettext("Only unfinished games are listed here: ask with open=1."))
        return Response({"sessions": selectors.open_sessions(player=player, now=timezone.now())})

    @extend_schema(
        request=StartSessionSerializer,
        # 403: a browser without a player that did not send the page's CSRF token (no guest is made).
        responses={
            201: documents.SessionDocument,
            200: documents.SessionDocument,
            403: documents.ErrorDocument,
            **documents.REFUSALS,
        },
        operation_id="start_session",
        summary="Start a refereed game on a code, a fresh deal of a variant, or today's daily",
    )
    def post(self, request: Request) -> Response:
        now = timezone.now()
        choice = _valid(StartSessionSerializer, request)
        guests.limit_starts(request)
        session, created = guests.play_as(
            request,
            lambda player: services.start_session(
                player=player, now=now, origin=fair_play.origin_of(request), **choice
            ),
        )
        document = selectors.session_document(session, live.game_for(session), now=now)
        return Response(document, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class SessionView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: documents.SessionDocument, **documents.REFUSALS}, operation_id="get_session")
    def get(self, request: Request, session_id: str) -> Response:
        now = timezone.now()
        session = selectors.session_for(player=_player(request), session_id=session_id)
        return Response(selectors.session_document(session, live.game_for(session), now=now))


class ActionsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ActionSerializer,
        responses={200: documents.SessionDocument, **documents.REFUSALS},
        operation_id="apply_action",
        summary="Apply one action token to my game",
    )
    def post(self, request: Request, session_id: str) -> Response:
        now = timezone.now()
        data = _valid(ActionSerializer, request)
        played = services.apply_action(
            player=_player(request), session_id=session_id, token=data["action"], at=data.get("at"), now=now
        )
        return Response(selectors.session_document(played.session, played.game, now=now))


class WhyView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[WHY_QUESTION],
        responses={200: documents.WhyDocument, **documents.REFUSALS},
        operation_id="why_not",
        summary="Why a group cannot be picked up, or an action played, now (changes nothing)",
    )
    def get(self, request: Request, session_id: str) -> Response:
        query = request.query_params
        answer = why.why_not(
            player=_player(request), session_id=session_id, group=query.get("group"), action=query.get("action")
        )
        return Response(answer)


class FinishView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: documents.SessionDocument, **documents.REFUSALS},
        operation_id="finish_session",
        summary="Give up: end the game as it stands and verify it",
    )
    def post(self, request: Request, session_id: str) -> Response:
        now = timezone.now()
        session, game = services.finish_session(player=_player(request), session_id=session_id, now=now)
        return Response(selectors.session_document(session, game, now=now))


class HintView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: documents.HintDocument, **documents.REFUSALS},
        operation_id="hint",
        summary="A next action chosen from what I see; counted on the game (a hinted game is not clean)",
    )
    def post(self, request: Request, session_id: str) -> Response:
        return Response(services.give_hint(player=_player(request), session_id=session_id, now=timezone.now()))


class PlayOutView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: documents.SessionDocument, **documents.REFUSALS},
        operation_id="play_out",
        summary="Every card face up and the stock empty: the server plays the game out to its win",
    )
    def post(self, request: Request, session_id: str) -> Response:
        now = timezone.now()
        won = services.play_out(player=_player(request), session_id=session_id, now=now)
        return Response(selectors.session_document(won.session, won.game, now=now))


class SubmissionsView(AsyncAPIView):  # async: verified and stored on the event loop
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=SubmissionSerializer,
        responses={201: documents.SubmissionAnswer, **documents.REFUSALS},
        operation_id="submit_log",
        summary="Verify a whole move list played elsewhere",
    )
    async def post(self, request: Request) -> Response:
        data = _plainly_valid_submission(request.data) or _valid(SubmissionSerializer, request)
        answer_status, body = await submissions.submit(
            player=_player(request),
            code=data["code"],
            log=data["moves"],
            claimed_score=data.get("claimed_score"),
            key=data.get("key"),  # its claim and its result commit in one transaction, on a thread
            limits=[_address_limit(guests.client_address(request))],
        )
        return Response(body, status=answer_status)


def _address_limit(address: str) -> ratelimit.Limit:
    """The submissions per address (read when asked: the setting may change)."""
    message = gettext_noop("Too many submissions from this address.")
    return ratelimit.Limit("submissions-address", address, settings.RATE_SUBMISSIONS_PER_ADDRESS, 60, message)


def _plain_text(value: object, max_length: int) -> bool:
    """A string StrictCharField takes as it is: not blank, no surrounding space to trim, no NUL."""
    return type(value) is str and 0 < len(value) <= max_length and value == value.strip() and "\x00" not in value


_SUBMISSION_FIELDS = frozenset(SubmissionSerializer().fields)


def _plainly_valid_submission(data: object) -> dict | None:
    """The submission's fields when SubmissionSerializer would accept them unchanged; else None, and
    the serializer decides (and words any refusal): building one costs more than the checks here."""
    if type(data) is not dict or not data.keys() <= _SUBMISSION_FIELDS:
        return None
    code, log = data.get("code"), data.get("moves")
    score, key = data.get("claimed_score"), data.get("key")
    if not (_plain_text(code, MAX_CODE_CHARS) and type(log) is list):
        return None
    if score is not None and not (type(score) is int and -(10**15) < score < 10**15):
        return None
    if key is not None and not _plain_text(key, 128):
        return None
    return {"code": code, "moves": log, "claimed_score": score, "key": key}


class DailyView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[date_parameter("date", "YYYY-MM-DD (UTC); today by default")],
        responses={200: documents.DailyOverview, **documents.REFUSALS},
        operation_id="dailies",
        summary="The seven dailies of a date and my part in them",
    )
    def get(self, request: Request) -> Response:
        now = timezone.now()
        date = _date_param(request.query_params.get("date"), default=schedule.utc_today(now))
        player = request.user if isinstance(request.user, Player) else None
        overview = selectors.daily_overview(player=player, date=date, now=now)
        response = Response({"date": date.isoformat(), "dailies": overview})
        if any(entry["status"] == "preparing" for entry in overview):
            response["Retry-After"] = str(schedule.PREPARING_RETRY_SECONDS)  # ask again: it is being prepared
        return response


VARIANTS_MAX_AGE = 3600  # seconds: the catalogue changes only with a release


class VariantsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: documents.VariantsDocument, **documents.REFUSALS},
        operation_id="variants",
        summary="The games and variants to choose from, with their names in my language (from the engine)",
    )
    def get(self, request: Request) -> Response:
        response = Response(variants.catalogue())
        # The same for everyone who speaks the language until the next release (Vary names the language).
        patch_cache_control(response, public=True, max_age=VARIANTS_MAX_AGE)
        return response


def _date_param(text: str | None, *, default: dt.date) -> dt.date:
    date = query_date(text)
    return default if date is None else date
