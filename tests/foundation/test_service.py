"""The service answers: home page, API docs and schema, uniform errors, body-size cap."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db


def test_home_page_and_api_docs_are_served(client: Client) -> None:
    assert "Solitaire League" in client.get("/").content.decode()
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()
    # Swagger UI is served from this site (the network reaches no CDN).
    assert b"cdn.jsdelivr" not in docs.content


def test_openapi_schema_lists_the_player_calls(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert schema["openapi"].startswith("3.")
    for path in ["/api/auth/signup", "/api/auth/login", "/api/auth/logout"]:
        assert path in schema["paths"]


def test_unknown_api_path_answers_in_the_error_shape(client: Client) -> None:
    response = client.get("/api/no-such-thing")
    assert response.status_code == 404
    assert response.json() == {"error": {"message": "No such address in the API.", "index": None, "token": None}}


@override_settings(MAX_BODY_BYTES=1000)
def test_a_body_over_the_limit_is_413_and_nothing_happens(client: Client) -> None:
    response = client.post("/api/auth/signup", "x" * 2000, content_type="application/json")
    assert response.status_code == 413
    assert "too large" in response.json()["error"]["message"]
