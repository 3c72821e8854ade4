"""Players: sign up, log in and out, tokens for scripts, sessions with CSRF for the browser."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Player
from tests.conftest import make_player

pytestmark = pytest.mark.django_db

GOOD = "correct horse 9"


def signup(api: APIClient, username: str, password: str = GOOD):  # type: ignore[no-untyped-def]
    return api.post("/api/auth/signup", {"username": username, "password": password}, format="json")


def test_signup_makes_a_player_and_a_working_token(api: APIClient) -> None:
    response = signup(api, "Alice_1")
    assert response.status_code == 201
    body = response.json()
    assert body["username"] == "Alice_1"
    player = Player.objects.get(username="Alice_1")
    assert not player.is_guest
    assert player.password.startswith("pbkdf2_sha256$")  # hashed by Django's default hasher
    scripted = APIClient()
    scripted.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    me = scripted.get("/api/auth/me")
    assert me.status_code == 200 and me.json()["username"] == "Alice_1"


@pytest.mark.parametrize("name", ["ab", "a" * 21, "has space", "émile", "semi;colon", "~guest-1"])
def test_names_outside_the_rule_are_refused(api: APIClient, name: str) -> None:
    response = signup(api, name)
    assert response.status_code == 422
    assert "3 to 20 characters" in response.json()["error"]["message"]
    assert not Player.objects.exists()


def test_names_are_unique_without_regard_to_case(api: APIClient) -> None:
    assert signup(api, "Alice").status_code == 201
    response = signup(APIClient(), "aLICE")
    assert response.status_code == 409
    assert "taken" in response.json()["error"]["message"]
    assert Player.objects.count() == 1


def test_weak_passwords_fail_djangos_validators(api: APIClient) -> None:
    response = signup(api, "bob", "123")
    assert response.status_code == 422
    assert "too short" in response.json()["error"]["message"]
    assert not Player.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {"username": "bob"},
        {"password": GOOD},
        {"username": 5, "password": GOOD},
        {"username": "bob", "password": None},
        ["bob", GOOD],
    ],
)
def test_missing_or_mistyped_fields_are_400(api: APIClient, body: object) -> None:
    response = api.post("/api/auth/signup", body, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["message"]
    assert not Player.objects.exists()


def test_body_that_is_not_json_is_400(api: APIClient) -> None:
    response = api.post("/api/auth/signup", "{nope", content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"error": {"message": "The body is not valid JSON.", "index": None, "token": None}}


def test_login_any_case_and_wrong_password(api: APIClient) -> None:
    make_player("Carol", GOOD)
    ok = api.post("/api/auth/login", {"username": "carol", "password": GOOD}, format="json")
    assert ok.status_code == 200 and ok.json()["username"] == "Carol"
    bad = api.post("/api/auth/login", {"username": "Carol", "password": "nope"}, format="json")
    assert bad.status_code == 401
    assert bad.json()["error"]["message"] == "Wrong name or password."


@override_settings(RATE_LOGIN_FAILURES=5)
def test_five_failed_logins_for_a_name_lock_it_for_a_while(api: APIClient) -> None:
    make_player("dave", GOOD)
    for _ in range(5):
        assert api.post("/api/auth/login", {"username": "dave", "password": "x"}, format="json").status_code == 401
    locked = api.post("/api/auth/login", {"username": "DAVE", "password": GOOD}, format="json")
    assert locked.status_code == 429
    assert int(locked["Retry-After"]) >= 1
    assert "Too many failed log-ins" in locked.json()["error"]["message"]


@override_settings(RATE_SIGNUPS=2)
def test_signups_are_limited_per_address(api: APIClient) -> None:
    assert signup(APIClient(), "pla1").status_code == 201
    assert signup(APIClient(), "pla2").status_code == 201
    refused = signup(APIClient(), "pla3")
    assert refused.status_code == 429 and refused.has_header("Retry-After")
    assert Player.objects.count() == 2


def test_logout_revokes_the_token(player_api: APIClient, player: Player) -> None:
    assert player_api.post("/api/auth/logout").status_code == 200
    assert not Token.objects.filter(user=player).exists()
    assert player_api.get("/api/auth/me").status_code == 401


def test_me_needs_a_player(api: APIClient) -> None:
    response = api.get("/api/auth/me")
    assert response.status_code == 401
    assert "player" in response.json()["error"]["message"]


def test_browser_first_game_makes_a_guest_who_keeps_their_identity_on_signup() -> None:
    browser = Client(enforce_csrf_checks=True)
    page = browser.get("/")
    assert page.status_code == 200
    assert not Player.objects.exists()  # a page view makes no player
    csrf = browser.cookies["csrftoken"].value
    game = browser.post("/api/sessions", {"variant": "SP1-S1C"}, content_type="application/json", HTTP_X_CSRFTOKEN=csrf)
    assert game.status_code == 201
    guest = Player.objects.get()
    assert guest.is_guest and not guest.has_usable_password()
    csrf = browser.cookies["csrftoken"].value  # rotated when the browser became the guest
    refused = browser.post("/api/auth/signup", {"username": "erin", "password": GOOD}, content_type="application/json")
    assert refused.status_code == 403  # CSRF applies to the browser's session
    accepted = browser.post(
        "/api/auth/signup",
        {"username": "erin", "password": GOOD},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=csrf,
    )
    assert accepted.status_code == 201
    upgraded = Player.objects.get()
    assert upgraded.pk == guest.pk and upgraded.username == "erin" and not upgraded.is_guest
    assert browser.get("/api/auth/me").json()["username"] == "erin"
