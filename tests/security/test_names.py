"""Names cannot pass for the interface's labels nor for another player."""

from __future__ import annotations

import json
from importlib import resources
from itertools import product
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient

from games.models import Player
from games.players import names
from games.players.accounts import create_guest
from tests.conftest import make_player
from tests.security.snapshot import snapshot

PASSWORD = "a long passphrase 7"
ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"


def sign_up(name: str) -> Any:
    return APIClient().post("/api/auth/signup", {"username": name, "password": PASSWORD}, format="json")


@pytest.mark.django_db
@pytest.mark.parametrize("label", ["Guest", "guest", "GUEST", "Vieras", "Gost", "admin", "Adrnin"])
def test_the_interfaces_labels_are_reserved(label: str) -> None:
    before = snapshot()
    refused = sign_up(label)
    assert refused.status_code == 422, refused.content
    assert "labels" in refused.json()["error"]["message"]
    assert snapshot() == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("taken", "look_alike"),
    [
        ("Alice", "AIice"),
        ("Alice", "A1ice"),
        ("alice", "AIice"),
        ("ALICE", "AL1CE"),
        ("Bob0", "BobO"),
        ("emma", "ernrna"),
        ("l1l", "Ill"),
    ],
)
def test_a_name_that_looks_like_a_taken_one_is_refused(taken: str, look_alike: str) -> None:
    assert sign_up(taken).status_code == 201
    before = snapshot()
    refused = sign_up(look_alike)
    assert refused.status_code == 409, refused.content
    assert "looks too much like" in refused.json()["error"]["message"]
    assert snapshot() == before


@pytest.mark.django_db
def test_names_that_only_share_letters_are_both_accepted() -> None:
    assert sign_up("Alice").status_code == 201
    assert sign_up("Alicia").status_code == 201
    assert sign_up("Aiice").status_code == 201  # i is not l
    assert sign_up("ALICE_").status_code == 201
    assert sign_up("AIICE_").status_code == 201  # nor is L
    assert sign_up("Mary").status_code == 201
    assert sign_up("rnary").status_code == 201  # M does not look like rn, though m does
    assert sign_up("rnary_").status_code == 201
    assert sign_up("mary_").status_code == 409


@pytest.mark.django_db
def test_a_guest_who_signs_up_gets_a_key_and_guests_hold_none() -> None:
    guest = create_guest()
    assert guest.name_key is None
    guest.is_guest = False
    guest.username = "Zed1"
    guest.save()
    assert Player.objects.get(pk=guest.pk).name_key == names.name_key("Zed1")


@pytest.mark.django_db
def test_the_database_refuses_two_look_alikes_even_past_the_service() -> None:
    make_player("Alice")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_player("AIice")


@pytest.mark.django_db
def test_saving_a_player_without_renaming_keeps_its_key() -> None:
    player = make_player("Quinn")
    Player.objects.filter(pk=player.pk).update(name_key=None)  # a look-alike older than the key
    player = Player.objects.get(pk=player.pk)
    player.first_name = "Q"
    player.save()
    assert Player.objects.get(pk=player.pk).name_key is None


def library_data() -> dict[str, list[dict[str, str]]]:
    """confusable-homoglyphs' copy of Unicode's confusables.txt."""
    data: dict[str, list[dict[str, str]]] = json.loads(
        resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text()
    )
    return data


def library_confusables() -> dict[str, set[str]]:
    """The library's confusables restricted to name characters."""
    data = library_data()
    found: dict[str, set[str]] = {}
    for char in ALPHABET:
        for entry in data.get(char, []):
            if all(c in ALPHABET for c in entry["c"]):
                found.setdefault(char, set()).add(entry["c"])
    return found


def test_the_mapping_agrees_with_unicodes_confusables() -> None:
    table = library_confusables()
    assert table, "the library's data has ASCII confusables"
    # Each pair the library names confusable has one skeleton ...
    classes: dict[str, set[str]] = {}
    for char, alikes in table.items():
        for alike in alikes:
            assert names._skeleton(char) == names._skeleton(alike), (char, alike)
            joined = classes.get(char, {char}) | classes.get(alike, {alike})
            for member in joined:
                classes[member] = joined
    # ... and no two single characters outside one of the library's classes share one.
    for a, b in product(ALPHABET, repeat=2):
        if a != b and names._skeleton(a) == names._skeleton(b):
            assert b in classes.get(a, set()), (a, b)
    # The characters that stand for a class are of their class (TR39 lists "|" with "l").
    for char, written in names.CONFUSABLES.items():
        if len(written) == 1 and written not in ALPHABET:
            assert any(entry["c"] == written for entry in library_data()["l"]), (char, written)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"), [("fi", "käyttöliittymän oma merkintä"), ("hr", "sučelje koristi za vlastite oznake")]
)
def test_the_refusal_is_in_the_players_language(language: str, words: str) -> None:
    refused = APIClient().post(
        "/api/auth/signup", {"username": "Guest", "password": PASSWORD}, format="json", HTTP_ACCEPT_LANGUAGE=language
    )
    assert refused.status_code == 422 and words in refused.json()["error"]["message"]
