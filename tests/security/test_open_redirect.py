"""`next` after signing in or up is a path on this site, or the home page: never another site."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

HOSTILE = [
    "/\\evil.example",
    "/\\/evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/ /evil.example",
    "//evil.example",
    "http://evil.example/",
    "https:evil.example",
    "javascript:alert(1)",
    "/\x00/evil.example",
]


def landing(page: str, target: str) -> str:
    response = Client().get(page, {"next": target})
    assert response.status_code == 200
    found = re.search(r'data-next="([^"]*)"', response.content.decode())
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize("page", ["/account/signin/", "/account/signup/"])
@pytest.mark.parametrize("target", HOSTILE)
def test_a_target_a_browser_reads_as_another_site_lands_on_the_home_page(page: str, target: str) -> None:
    assert landing(page, target) == "/"


def test_the_raw_query_of_the_reported_addresses_lands_on_the_home_page() -> None:
    for query in ("next=/%5Cevil.example", "next=/%09/evil.example"):
        response = Client().get(f"/account/signin/?{query}")
        assert 'data-next="/"' in response.content.decode()


@pytest.mark.parametrize("target", ["/", "/play/abc/", "/leaderboards/code:SP1-S1C-AAAAAAA/?page=2"])
def test_a_path_on_this_site_is_kept(target: str) -> None:
    assert landing("/account/signin/", target) == target
