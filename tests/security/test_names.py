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
from games.players.guests import create_guest
from tests.conftest import make_player
from tests.security.snapshot import snapshot

PASSWORD = "a long passphrase 7"
ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"


def sign_up(name: str) -> Any:
    return APIClient().post("/api/auth/signup", {"username": name, "password": PASSWORD}, format="json")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "label",
    ["Guest", "guest", "GUEST", "Vieras", "Gost", "admin", "Adrnin", "ADMIN", "MODERATOR", "ADMINISTRATOR", "SYSTEM"]
    + ["Adm1n", "Referee", "RNODERATOR", "g0st", "STAFF"],
)
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
        ("Maxwysxa", "rnaxwysxa"),  # as `maxwysxa`, one name with `Maxwysxa`
        ("Mary", "RNARY"),
        ("rnary", "Mary"),
        ("ALICE_", "aIice_"),  # as `alice_`
        ("Alice", "Aiice"),  # one name with `AIice`
        ("Bob0", "BOBO"),
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
    assert sign_up("Alise").status_code == 201
    assert sign_up("ALICE_").status_code == 201
    assert sign_up("Mary").status_code == 201
    assert sign_up("Marty").status_code == 201
    assert sign_up("rnary_").status_code == 201
    assert sign_up("Nary").status_code == 201
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


def cased(char: str) -> set[str]:
    return {char, char.lower(), char.upper()}


def test_the_mapping_agrees_with_unicodes_confusables_closed_under_case() -> None:
    table = library_confusables()
    assert table, "the library's data has ASCII confusables"
    # The library's classes, joined with each character's other case: a name is one name in any case.
    classes: dict[str, set[str]] = {}

    def join(a: str, b: str) -> None:
        joined = classes.get(a, {a}) | classes.get(b, {b})
        for member in joined:
            classes[member] = joined

    for char in ALPHABET:
        for other in cased(char):
            join(char, other)
    for char, alikes in table.items():
        for alike in alikes:
            join(char, alike)
    # Each pair the library names confusable, in any case of each, has one key ...
    for char, alikes in table.items():
        for alike in alikes:
            for a, b in product(cased(char), {alike, alike.lower(), alike.upper()}):
                assert names.name_key(a) == names.name_key(b), (a, b)
    # ... and no two single characters outside one of those classes share one.
    for a, b in product(ALPHABET, repeat=2):
        if names.name_key(a) == names.name_key(b):
            assert b in classes.get(a, {a}), (a, b)
    # A key is already its own key: folding and mapping again change nothing.
    for char in ALPHABET:
        assert names.name_key(names.name_key(char)) == names.name_key(char)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"), [("fi", "käyttöliittymän oma merkintä"), ("hr", "sučelje koristi za vlastite oznake")]
)
def test_the_refusal_is_in_the_players_language(language: str, words: str) -> None:
    refused = APIClient().post(
        "/api/auth/signup", {"username": "Guest", "password": PASSWORD}, format="json", HTTP_ACCEPT_LANGUAGE=language
    )
    assert refused.status_code == 422 and words in refused.json()["error"]["message"]
