"""Migration games 0011 makes every named player's look-alike key again, folded for case first:
the older of two names that now look alike keeps the key, the newer keeps none (as a look-alike
older than the key always did), and going back gives the old keys again."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from tests.migrations.steps import migrate

BEFORE = [("games", "0010_player_index_covered")]
AFTER = [("games", "0011_name_keys_fold_case")]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_the_latest")
def test_keys_are_made_again_folded_for_case_and_the_older_name_keeps_its_key() -> None:
    apps = migrate(BEFORE)
    player_model = apps.get_model("games", "Player")
    # the keys the release before gave them (`Zed1` as a look-alike older than the key: none)
    for name, key in [("Maxwysxa", "maxwysxa"), ("rnaxwysxa", "rnaxwysxa"), ("ADMIN", "adm|n"), ("Zed1", None)]:
        player_model.objects.create(username=name, name_key=key, password="!")
    player_model.objects.create(username="~guest-1", is_guest=True, password="!")
    apps = migrate(AFTER)
    keys = dict(apps.get_model("games", "Player").objects.values_list("username", "name_key"))
    assert keys == {"Maxwysxa": "rnaxwysxa", "rnaxwysxa": None, "ADMIN": "adrnln", "Zed1": "zedl", "~guest-1": None}
    apps = migrate(BEFORE)
    keys = dict(apps.get_model("games", "Player").objects.values_list("username", "name_key"))
    assert keys == {"Maxwysxa": "maxwysxa", "rnaxwysxa": "rnaxwysxa", "ADMIN": "adm|n", "Zed1": "zed|", "~guest-1": None}
