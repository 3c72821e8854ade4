"""Sign-up, log-in, log-out and the current player (docs/api.md, Players)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login, logout
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import auth_backend, services
from games.api.documents import refusals
from games.api.openapi import SPACE, padded, text
from games.models import Player
from games.players import guests
from games.players.names import LOGIN_RULE, NAME_RULE
from web.fields import ClosedSerializer, StrictCharField

# The names each call accepts (games.players.names), with the blanks around them it strips; a
# password Django's validators refuse at sign-up is a 422 in their words.
SIGN_UP_NAME = padded(NAME_RULE.pattern, SPACE)
LOG_IN_NAME = padded(LOGIN_RULE.pattern, SPACE)


class SignUpSerializer(ClosedSerializer):
    username = StrictCharField(max_length=100, trim_whitespace=False, pattern=SIGN_UP_NAME)
    # At least 8: Django's MinimumLengthValidator (AUTH_PASSWORD_VALIDATORS).
    password = StrictCharField(max_length=200, trim_whitespace=False, pattern=r"^[^\x00]{8,200}$")


class LogInSerializer(ClosedSerializer):
    username = StrictCharField(max_length=100, trim_whitespace=False, pattern=LOG_IN_NAME)
    password = StrictCharField(max_length=200, trim_whitespace=False, pattern=text(200))


TokenSerializer = inline_serializer(
    "PlayerToken",
    {
        "token": serializers.CharField(required=False, help_text="For scripts only: the browser's page gets none."),
        "username": serializers.CharField(),
    },
)
TokenListSerializer = inline_serializer(
    "PlayerTokens",
    {
        "tokens": inline_serializer(
            "PlayerTokenInfo",
            {
                "id": serializers.CharField(),
                "created": serializers.DateTimeField(),
                "expires": serializers.DateTimeField(),
            },
            many=True,
        )
    },
)
MeSerializer = inline_serializer(
    "Me",
    {
        "username": serializers.CharField(),
        "guest": serializers.BooleanField(),
        "joined": serializers.DateTimeField(),
    },
)


def _current_guest(request: Request) -> Player | None:
    user = request.user
    return user if isinstance(user, Player) and user.is_guest else None


def _from_the_browser(request: Request) -> bool:
    """The browser's page calls with its CSRF cookie (every page sets it) and, once it has played,
    its session; a script calls without cookies, or with its token."""
    if request.auth is not None:
        return False
    return request.user.is_authenticated or settings.CSRF_COOKIE_NAME in request.COOKIES


def _signed_in(request: Request, player: Player) -> Response:
    """The browser's session becomes this player's and its script gets no token (it needs none,
    and a token in a page's script is one a script injected into the page could read); a
    script gets its token."""
    browser = _from_the_browser(request)
    if request.session is not None and request.auth is None:
        login(request, player, backend=auth_backend.PATH)  # DRF's Request passes the session and user through
    if browser:
        return Response({"username": player.username})
    return Response({"token": services.token_for(player), "username": player.username})


class SignUpView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        request=SignUpSerializer,
        responses={201: TokenSerializer, **refusals(400, 409, 413, 422, 429)},
        operation_id="signup",
    )
    def post(self, request: Request) -> Response:
        data = SignUpSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.sign_up(
            username=data.validated_data["username"],
            password=data.validated_data["password"],
            address=guests.client_address(request),
            guest=_current_guest(request),
        )
        response = _signed_in(request, player)
        response.status_code = status.HTTP_201_CREATED
        return response


class LogInView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        request=LogInSerializer,
        responses={200: TokenSerializer, **refusals(400, 401, 413, 422, 429)},
        operation_id="login",
    )
    def post(self, request: Request) -> Response:
        data = LogInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.log_in(
            username=data.validated_data["username"],
            password=data.validated_data["password"],
            address=guests.client_address(request),
        )
        return _signed_in(request, player)


class LogOutView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: inline_serializer("LoggedOut", {"ok": serializers.BooleanField()}), **refusals(401)},
        operation_id="logout",
    )
    def post(self, request: Request) -> Response:
        player = request.user
        assert isinstance(player, Player)
        if request.auth is not None:  # a script's log-out ends its token; the browser's, its session
            services.revoke_token(player)
        logout(request)
        return Response({"ok": True})


class TokensView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: TokenListSerializer, **refusals(401)}, operation_id="tokens")
    def get(self, request: Request) -> Response:
        player = request.user
        assert isinstance(player, Player)
        return Response({"tokens": services.tokens_of(player)})


class TokenView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        parameters=[OpenApiParameter("token_id", str, OpenApiParameter.PATH, pattern="^[0-9a-f]{16}$")],
        responses={200: inline_serializer("TokenRevoked", {"ok": serializers.BooleanField()}), **refusals(401, 404)},
        operation_id="revoke_token",
    )
    def delete(self, request: Request, token_id: str) -> Response:
        player = request.user
        assert isinstance(player, Player)
        services.revoke_token(player, token_id_=token_id)
        return Response({"ok": True})


class MeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: MeSerializer, **refusals(401)}, operation_id="me")
    def get(self, request: Request) -> Response:
        player = request.user
        assert isinstance(player, Player)
        return Response({"username": player.display_name, "guest": player.is_guest, "joined": player.date_joined})
