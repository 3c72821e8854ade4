"""The pages render for a first-time visitor (who becomes a guest only by playing) in every language."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from django.test import Client

from games.models import Player

LOCALE = Path(__file__).resolve().parents[2] / "locale"
PAGES = [
    "/",
    "/leaderboards/",
    "/leaderboards/daily:2026-11-30:SP1-S4C/",
    "/rooms/",
    "/account/signup/",
    "/account/signin/",
    "/rules/spider/",
    "/rules/spiderette/",
    "/rules/russian/",
]
MISSING = [
    "/play/7d0ab7b6-3f5e-4d32-8a55-0b1f5d7c2f11/",
    "/players/someone/",
    "/replay/1/",
    "/replay/x/",
    "/rooms/7d0ab7b6-3f5e-4d32-8a55-0b1f5d7c2f11/",
    "/rooms/nonsense/",
    "/leaderboards/nonsense/",
    "/leaderboards/code:XX1-S1-AAAAAAA/",
]


@pytest.mark.django_db
@pytest.mark.parametrize("path", PAGES)
def test_page_renders_with_the_csrf_cookie_and_makes_no_player(path: str) -> None:
    client = Client()
    response = client.get(path)
    assert response.status_code == 200
    assert b'type="module"' in response.content
    assert "csrftoken" in response.cookies
    assert not Player.objects.exists()  # a crawler or a cookieless client makes no rows


@pytest.mark.django_db
@pytest.mark.parametrize("path", MISSING)
def test_a_page_about_something_missing_is_a_404_page_without_scripts(path: str) -> None:
    response = Client().get(path, HTTP_ACCEPT_LANGUAGE="fi")
    assert response.status_code == 404
    html = response.content.decode()
    assert "<h1>" in html and 'href="/"' in html
    assert "pages/play.js" not in html and "pages/room.js" not in html and "pages/leaderboard.js" not in html
    assert "Pelaa uusi peli" in html  # in the visitor's language
    assert not Player.objects.exists()  # nobody became a guest for it


@pytest.mark.django_db
def test_pages_of_things_that_exist_render() -> None:
    from games.rooms.rooms import create_room
    from games.services import apply_action, finish_session, start_session

    client = Client()
    client.get("/")
    assert client.post("/api/rooms", {"variant": "SP1-S1C"}, content_type="application/json").status_code == 201
    guest = Player.objects.get()  # made by the first game, here a race room
    session, _ = start_session(player=guest, code="SD1-S1-AAAAAAA")
    apply_action(player=guest, session_id=session.id, token="D")
    finish_session(player=guest, session_id=session.id)
    room = create_room(host=guest, variant="SP1-S1C")
    named = Player.objects.create_user(username="someone", password="a long pass phrase 9")
    result = guest.results.get()
    for path in (f"/play/{session.id}/", f"/rooms/{room.pk}/", "/players/SomeOne/", f"/replay/{result.pk}/"):
        assert client.get(path).status_code == 200, path
    other = Client()
    other.force_login(named)
    assert other.get(f"/play/{session.id}/").status_code == 404  # another player's game


@pytest.mark.django_db
def test_the_favicon_is_served() -> None:
    client = Client()
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("frontend/favicon.svg")
    html = client.get("/").content.decode()
    assert 'rel="icon"' in html and "favicon.svg" in html


@pytest.mark.django_db
def test_unknown_rules_page_is_404() -> None:
    assert Client().get("/rules/klondike/").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("accept", "heading", "button"),
    [
        ("fi", "Tällaista sivua ei ole", "Pelaa uusi peli"),
        ("hr", "Takva stranica ne postoji", "Igraj novu partiju"),
        ("en", "There is no such page", "Play a new game"),
    ],
)
@pytest.mark.parametrize("path", ["/no-such-page/", "/rules/klondike/"])
def test_an_address_no_page_answers_is_the_leagues_404_in_the_visitors_language(
    path: str, accept: str, heading: str, button: str
) -> None:
    response = Client().get(path, HTTP_ACCEPT_LANGUAGE=accept)
    assert response.status_code == 404
    html = response.content.decode()
    assert f"<h1>{heading}</h1>" in html and button in html
    assert "Not Found" not in html and "The requested resource" not in html  # Django's own English page


@pytest.mark.django_db
def test_the_404_page_shows_who_is_signed_in(player: Player) -> None:
    client = Client()
    client.force_login(player)
    html = client.get("/no-such-page/").content.decode()
    assert f'href="/players/{player.username}/"' in html and "Sign up" not in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("accept", "words"),
    [
        ("fi-FI,fi;q=0.9", ["Uusi jako", "Helppo", "Keskitaso", "Vaikea", "Klassinen", "Helpotettu"]),
        ("hr", ["Nova podjela", "Lako", "Srednje", "Teško", "Klasično", "Ublaženo"]),
        ("en-US", ["New deal", "Easy", "Medium", "Hard", "Classic", "Relaxed"]),
    ],
)
def test_language_from_the_browser(accept: str, words: list[str]) -> None:
    html = Client().get("/", HTTP_ACCEPT_LANGUAGE=accept).content.decode()
    for word in words:
        assert word in html


@pytest.mark.django_db
def test_russian_rule_names_in_finnish() -> None:
    html = Client().get("/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Sama maa" in html and "Sekalaiset maat" in html


@pytest.mark.django_db
def test_language_switch_sticks() -> None:
    client = Client()
    client.get("/")
    response = client.post("/i18n/setlang/", {"language": "hr", "next": "/rules/spider/"})
    assert response.status_code == 302
    html = client.get("/rules/spider/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Kako se igra Pauk" in html


@pytest.mark.django_db
def test_javascript_catalog_speaks_finnish() -> None:
    body = Client().get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "kuningas" in body and "Voitit!" in body


def test_next_is_only_a_local_path() -> None:
    from django.test import RequestFactory

    from frontend.views import _safe_next

    factory = RequestFactory()
    assert _safe_next(factory.get("/", {"next": "//evil.example/"})) == "/"
    assert _safe_next(factory.get("/", {"next": "https://evil.example/"})) == "/"
    assert _safe_next(factory.get("/", {"next": "/play/x/"})) == "/play/x/"


def _po_entries(path: Path) -> list[tuple[str, str]]:
    text = path.read_text(encoding="utf-8")
    out = []
    for entry in text.split("\n\n")[1:]:
        if "msgid_plural" in entry:
            continue
        ids = re.search(r'^msgid ((?:".*"\n?)+)', entry, re.M)
        strs = re.search(r'^msgstr ((?:".*"\n?)+)', entry, re.M)
        context = re.search(r'^msgctxt ((?:".*"\n?)+)', entry, re.M)
        if ids and strs:

            def join(block: str) -> str:
                return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', block)).replace('\\"', '"').replace("\\\\", "\\")

            # A msgid with a context is kept as gettext keeps it: "context\x04msgid".
            key = f"{join(context.group(1))}\x04" if context else ""
            out.append((key + join(ids.group(1)), join(strs.group(1))))
    return out


@pytest.mark.parametrize("lang", ["fi", "hr"])
@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_every_string_is_translated_and_compiled(lang: str, domain: str) -> None:
    """The committed .mo matches the .po: `make run` needs no gettext tools."""
    po = LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"
    with open(po.with_suffix(".mo"), "rb") as handle:
        catalog = gettext.GNUTranslations(handle)
    entries = _po_entries(po)
    assert entries
    # msgfmt leaves a fuzzy entry (msgmerge's guess from a similar msgid) out of the .mo.
    fuzzy = re.findall(r"^#,.*\bfuzzy\b.*\n(?:#.*\n)*(msgid .*)$", po.read_text(encoding="utf-8"), re.M)
    assert not fuzzy, f"{lang} {domain}: fuzzy entries {fuzzy}"
    for msgid, msgstr in entries:
        assert msgstr, f"{lang} {domain}: untranslated {msgid!r}"
        assert catalog.gettext(msgid) == msgstr, f"{lang} {domain}: .mo is stale for {msgid!r}"


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_finnish_has_one_word_for_a_suit(domain: str) -> None:
    """A card's suit is "maa" in every Finnish string; "väri" (a colour) is only for colours."""
    entries = _po_entries(LOCALE / "fi" / "LC_MESSAGES" / f"{domain}.po")
    for msgid, msgstr in entries:
        words = re.sub(r"%\(\w+\)s", "", msgid)
        if re.search(r"colou?r", words, re.I):
            continue
        if re.search(r"\bsuits?\b", words, re.I):
            assert re.search(r"\bma[ai]|sekama[ai]", msgstr, re.I), (msgid, msgstr)  # maa, maata, maita, sekamaiden
        assert not re.search(r"väri|perhe", msgstr, re.I), (msgid, msgstr)
