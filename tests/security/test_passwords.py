"""Passwords are stored only as hashes of Django's default hasher, never as given."""

from __future__ import annotations

import json

import pytest
from django.conf import global_settings, settings
from django.contrib.auth.hashers import get_hasher, identify_hasher
from rest_framework.test import APIClient

from games.models import Player
from tests.security.snapshot import snapshot

pytestmark = pytest.mark.django_db
PASSWORD = "Quiet-Harbour-Lantern-42"


def test_the_stored_password_is_a_default_hasher_hash_and_nothing_holds_it_in_clear(api: APIClient) -> None:
    assert settings.PASSWORD_HASHERS == global_settings.PASSWORD_HASHERS  # Django's own choice, untouched
    assert api.post("/api/auth/signup", {"username": "hasher", "password": PASSWORD}, format="json").status_code == 201
    stored = Player.objects.get(username="hasher").password
    assert identify_hasher(stored).algorithm == get_hasher("default").algorithm
    assert PASSWORD not in json.dumps(snapshot(), default=str)
    assert Player.objects.get(username="hasher").check_password(PASSWORD)
    logged_in = APIClient().post("/api/auth/login", {"username": "hasher", "password": PASSWORD}, format="json")
    assert logged_in.status_code == 200 and PASSWORD not in logged_in.content.decode()
