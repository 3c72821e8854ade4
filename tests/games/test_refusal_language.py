"""A refused move is explained in the player's language (HTTP and the play socket), with its rule id.

Finnish and Croatian use the seeds' terms and the play page's card names
("ruutu kuningatar", "dama karo"); English stays the engine's sentence.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.utils import timezone, translation
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.asgi import application
from games import refusals
from games.engine import Game, parse_action
from games.models import Player
from games.players.guests import create_guest
from games.services import start_session
from tests.engine.test_engine_rules_ids import CASES
from tests.leaderboard.factories import daily_of

ORIGIN = (b"origin", b"http://127.0.0.1")
HOST = (b"host", b"127.0.0.1")  # the origin check compares the Origin with the address the socket was opened on

# Three refusals whose cards and rules differ: Classic Spider's one-suit group, Russian
# Classic's "same family", Spiderette's deal with an empty column; and a plural.
SPIDER = ("SP1-S4C-AAAAAAA", ["10:1>8"], "8:2>1", "group_one_suit")
RUSSIAN = ("RU1-C-AAAAABB", [], "1:1>2", "doesnt_fit_same_suit")
SPIDERETTE_DEAL = ("SD1-S4-AAAAAAA", ["1:1>2"], "D", "deal_with_empty_column")
FACE_UP = ("SD1-S4-AAAAAAA", [], "1:2>2", "not_enough_face_up")

SAYS = {
    ("en", "group_one_suit"): "In Classic Spider a group must be one suit: the Q♦ is on the K♠",
    ("fi", "group_one_suit"): (
        "Klassisessa Hämähäkissä ryhmän on oltava samaa maata: kortti ruutu kuningatar on kortin pata kuningas päällä"
    ),
    ("hr", "group_one_suit"): (
        "U igri Pauk uz pravilo Klasično skupina mora biti iste boje: karta dama karo leži na karti kralj pik"
    ),
    ("en", "doesnt_fit_same_suit"): (
        "The 5♠ doesn't fit on the 8♦: in Classic Russian Solitaire a card goes only onto the next higher card "
        "of the same suit"
    ),
    ("fi", "doesnt_fit_same_suit"): (
        "Kortti pata 5 ei sovi kortin ruutu 8 päälle: klassisessa Venäläisessä pasianssissa kortin voi asettaa "
        "vain samaa maata olevan, yhtä arvoa suuremman kortin päälle"
    ),
    ("hr", "doesnt_fit_same_suit"): (
        "Karta 5 pik ne može na kartu 8 karo: u igri Ruski pasijans uz pravilo Klasično karta ide samo na "
        "kartu iste boje za jednu vrijednost veću"
    ),
    ("en", "deal_with_empty_column"): "You can't deal while a column is empty (column 1)",
    ("fi", "deal_with_empty_column"): "Et voi jakaa, kun jokin sarake on tyhjä (sarake 1)",
    ("hr", "deal_with_empty_column"): "Dok je neki stupac prazan, dijeljenje nije moguće (stupac 1)",
    ("en", "not_enough_face_up"): "Column 1 has only 1 face-up card",
    ("fi", "not_enough_face_up"): "Sarakkeessa 1 on vain 1 näkyvä kortti",
    ("hr", "not_enough_face_up"): "Stupac 1 ima samo 1 vidljivu kartu",
}
REFUSALS = [SPIDER, RUSSIAN, SPIDERETTE_DEAL, FACE_UP]


def _client(player: Player, *, header: str | None = None, cookie: str | None = None) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=player)
    extra: dict[str, str] = {"HTTP_AUTHORIZATION": f"Token {token.key}"}
    if header is not None:
        extra["HTTP_ACCEPT_LANGUAGE"] = header
    client.credentials(**extra)
    if cookie is not None:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = cookie
    return client


def _refuse_over_http(client: APIClient, code: str, before: list[str], token: str) -> Any:
    sid = client.post("/api/sessions", {"code": code}, format="json").json()["id"]
    for move in before:
        assert client.post(f"/api/sessions/{sid}/actions", {"action": move}, format="json").status_code == 200
    response = client.post(f"/api/sessions/{sid}/actions", {"action": token}, format="json")
    assert response.status_code == 422
    return response.json()


# ---------------------------------------------------------------------- HTTP


@pytest.mark.django_db
@pytest.mark.parametrize(("code", "before", "token", "rule"), REFUSALS, ids=[r[3] for r in REFUSALS])
@pytest.mark.parametrize(
    ("lang", "how"),
    [
        ("fi", {"header": "fi-FI,fi;q=0.9,en;q=0.5"}),
        ("hr", {"header": "hr"}),
        ("fi", {"cookie": "fi"}),
        ("hr", {"cookie": "hr", "header": "en"}),
        ("en", {"header": "en-US"}),
        ("en", {}),
    ],
    ids=["fi-header", "hr-header", "fi-cookie", "hr-cookie-over-header", "en-header", "default"],
)
def test_an_illegal_move_over_http_is_explained_in_the_players_language(
    player: Player, code: str, before: list[str], token: str, rule: str, lang: str, how: dict[str, str]
) -> None:
    body = _refuse_over_http(_client(player, **how), code, before, token)
    assert body == {"error": {"message": SAYS[(lang, rule)], "index": len(before) + 1, "token": token, "rule": rule}}


@pytest.mark.django_db
def test_english_is_the_engines_sentence_word_for_word(player: Player) -> None:
    code, before, token, rule = SPIDER
    game = Game.from_code(code)
    for move in before:
        game.apply(move)
    error = game.refusal_error(parse_action(token))
    assert error is not None and error.rule == rule
    body = _refuse_over_http(_client(player, header="en"), code, before, token)
    assert body["error"]["message"] == error.message


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["fi", "hr"])
def test_a_malformed_token_is_explained_too(player: Player, lang: str) -> None:
    body = _refuse_over_http(_client(player, header=lang), "SD1-S4-AAAAAAA", [], "1:01>2")
    assert body["error"]["rule"] == "malformed_leading_zero"
    expected = {
        "fi": "'1:01>2' ei ole toiminto: luvuissa ei ole etunollia ('01')",
        "hr": "'1:01>2' nije radnja: brojevi nemaju vodećih nula ('01')",
    }
    assert body["error"]["message"] == expected[lang]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "message"),
    [
        (
            "fi",
            "Klassisessa Hämähäkissä ryhmän on oltava samaa maata: kortti ruutu kuningatar on kortin pata kuningas "
            "päällä",
        ),
        (
            "hr",
            "U igri Pauk uz pravilo Klasično skupina mora biti iste boje: karta dama karo leži na karti kralj pik",
        ),
        ("en", "In Classic Spider a group must be one suit: the Q♦ is on the K♠"),
    ],
)
def test_a_submitted_log_is_refused_in_the_players_language(player: Player, lang: str, message: str) -> None:
    client = _client(player, header=lang)
    response = client.post(
        "/api/submissions", {"code": "SP1-S4C-AAAAAAA", "moves": ["10:1>8", "8:2>1", "D"]}, format="json"
    )
    assert response.status_code == 422
    assert response.json() == {"error": {"message": message, "index": 2, "token": "8:2>1", "rule": "group_one_suit"}}


@pytest.mark.django_db
def test_errors_that_break_no_rule_have_no_rule_key(player: Player) -> None:
    client = _client(player, header="fi")
    response = client.get("/api/sessions/00000000-0000-0000-0000-000000000000")
    assert response.status_code == 404 and "rule" not in response.json()["error"]


@pytest.mark.django_db
def test_an_invalid_code_names_its_rule_in_the_players_language(player: Player) -> None:
    response = _client(player, header="hr").post("/api/sessions", {"code": "SP1-S1R-AAAAAAA"}, format="json")
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["rule"] == "code_one_suit_relaxed"
    assert error["message"] == "S jednom bojom Pauk ima samo pravilo Klasično (C): pišite SP1-S1C"


# ------------------------------------------------------------------ the socket


async def _token_of(player: Player) -> str:
    return await database_sync_to_async(lambda: Token.objects.get_or_create(user=player)[0].key)()


async def _refuse_over_socket(player: Player, headers: list[tuple[bytes, bytes]], refusal: tuple[Any, ...]) -> Any:
    code, before, token, _rule = refusal
    session, _ = await database_sync_to_async(start_session)(player=player, code=code)
    auth = (b"authorization", f"Token {await _token_of(player)}".encode())
    socket = WebsocketCommunicator(application, f"/ws/play/{session.id}/", headers=[ORIGIN, HOST, auth, *headers])
    connected, _ = await socket.connect()
    assert connected
    assert (await socket.receive_json_from())["type"] == "session"
    for move in before:
        await socket.send_json_to({"type": "action", "action": move})
        assert (await socket.receive_json_from())["type"] == "delta"
    await socket.send_json_to({"type": "action", "action": token})
    refused = await socket.receive_json_from()
    await socket.disconnect()
    return refused


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("socket_cleanup")
@pytest.mark.parametrize("refusal", REFUSALS, ids=[r[3] for r in REFUSALS])
@pytest.mark.parametrize(
    ("lang", "headers"),
    [
        ("fi", [(b"accept-language", b"fi-FI,fi;q=0.9")]),
        ("hr", [(b"accept-language", b"hr")]),
        ("fi", [(b"cookie", b"csrftoken=x; django_language=fi"), (b"accept-language", b"hr")]),
        ("hr", [(b"cookie", b"django_language=hr")]),
        ("en", [(b"accept-language", b"en-GB")]),
        ("en", []),
    ],
    ids=["fi-header", "hr-header", "fi-cookie-over-header", "hr-cookie", "en-header", "default"],
)
async def test_an_illegal_move_over_the_socket_is_explained_in_the_players_language(
    player: Player, refusal: tuple[Any, ...], lang: str, headers: list[tuple[bytes, bytes]]
) -> None:
    refused = await _refuse_over_socket(player, headers, refusal)
    _code, before, token, rule = refusal
    assert refused == {
        "type": "error",
        "status": 422,
        "error": {"message": SAYS[(lang, rule)], "index": len(before) + 1, "token": token, "rule": rule},
    }


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("socket_cleanup")
async def test_one_socket_in_finnish_does_not_change_another_in_croatian(player: Player) -> None:
    fi = await _refuse_over_socket(player, [(b"accept-language", b"fi")], RUSSIAN)
    hr = await _refuse_over_socket(player, [(b"accept-language", b"hr")], RUSSIAN)
    en = await _refuse_over_socket(player, [], RUSSIAN)
    assert fi["error"]["message"] == SAYS[("fi", "doesnt_fit_same_suit")]
    assert hr["error"]["message"] == SAYS[("hr", "doesnt_fit_same_suit")]
    assert en["error"]["message"] == SAYS[("en", "doesnt_fit_same_suit")]


# --------------------------------------------------------- the catalogue itself


def _engine_errors() -> list[Any]:
    errors = []
    for _rule, refuse, _sentence, kind in CASES:
        with pytest.raises(kind) as info:
            refuse()
        errors.append(info.value)
    return errors


def test_every_rule_reads_as_the_engine_in_english_and_is_translated_in_finnish_and_croatian() -> None:
    for error in _engine_errors():
        with translation.override("en"):
            assert refusals.sentence(error.rule, error.params) == error.message, error.rule
        for lang in ("fi", "hr"):
            with translation.override(lang):
                said = refusals.sentence(error.rule, error.params, error.message)
            if error.rule in refusals.TRANSLATED_RULES:
                assert said != error.message, (lang, error.rule)
                assert "%(" not in said and not set("♠♥♦♣") & set(said), (lang, error.rule, said)
            else:  # game codes and hand-made positions are for scripts: English
                assert said == error.message


def test_every_play_refusal_is_translated() -> None:
    play = {rule for rule, *_ in CASES if not rule.startswith(("code_", "variant_", "state_"))}
    assert play <= refusals.TRANSLATED_RULES
    assert refusals.TRANSLATED_RULES <= {rule for rule, *_ in CASES}


@pytest.mark.parametrize(
    ("lang", "cards"),
    [
        ("fi", ["pata ässä", "hertta 10", "risti jätkä", "ruutu kuningatar", "pata kuningas"]),
        ("hr", ["as pik", "10 herc", "dečko tref", "dama karo", "kralj pik"]),
        ("en", ["A♠", "10♥", "J♣", "Q♦", "K♠"]),
    ],
)
def test_cards_are_named_as_on_the_play_page(lang: str, cards: list[str]) -> None:
    with translation.override(lang):
        assert [refusals.card_name(c) for c in ("AS", "TH", "JC", "QD", "KS")] == cards


def test_an_unknown_rule_or_a_broken_translation_falls_back_to_english() -> None:
    with translation.override("fi"):
        assert refusals.sentence("no_such_rule", {}, "Some English") == "Some English"
        assert refusals.sentence("doesnt_fit", {"card": "8H"}, "The 8♥ doesn't fit") == "The 8♥ doesn't fit"


def test_every_sentence_is_the_engines_english_with_placeholders() -> None:
    """A msgid is the engine's sentence word for word: English answers are unchanged by gettext."""
    from games.engine.rules import RULES

    for rule, msgid in refusals.SENTENCES.items():
        assert msgid.replace("%(", "{").replace(")s", "}") == RULES[rule], rule
    players_meet = {rule for rule in RULES if not rule.startswith("state_")}
    assert players_meet <= refusals.TRANSLATED_RULES


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", "Unknown game 'XX1': a code starts with SP1 (Spider), SD1 (Spiderette) or RU1 (Russian Solitaire)"),
        (
            "fi",
            "Tuntematon peli 'XX1': koodi alkaa SP1 (Hämähäkki), SD1 (Pikkuhämähäkki) tai RU1 (Venäläinen pasianssi)",
        ),
        ("hr", "Nepoznata igra 'XX1': kod počinje s SP1 (Pauk), SD1 (Paučić) ili RU1 (Ruski pasijans)"),
    ],
)
def test_a_mistyped_game_code_is_refused_in_the_players_language(player: Player, lang: str, message: str) -> None:
    response = _client(player, header=lang).post("/api/sessions", {"code": "XX1-S1C-AAAAAAA"}, format="json")
    assert response.status_code == 422
    assert response.json()["error"] == {"message": message, "index": 0, "token": None, "rule": "code_unknown_game"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "message"),
    [("en", "No such game session."), ("fi", "Tällaista peliä ei ole."), ("hr", "Takva igra ne postoji.")],
)
def test_other_refusals_speak_the_players_language_too(player: Player, lang: str, message: str) -> None:
    response = _client(player, header=lang).get("/api/sessions/7d0ab7b6-3f5e-4d32-8a55-0b1f5d7c2f11")
    assert response.status_code == 404
    assert response.json()["error"]["message"] == message


# ------------------------------------------------------------------ fair competition's refusals


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", "This game code cannot be played now."),
        ("fi", "Tätä pelikoodia ei voi pelata nyt."),
        ("hr", "Ovaj kod partije sada se ne može igrati."),
    ],
)
def test_a_secret_code_is_refused_in_the_players_language(player: Player, lang: str, message: str) -> None:
    today = daily_of(timezone.now().date(), "SD1-S4", "SD1-S4-MIDDLEX")  # unpublished: its code is secret
    client = _client(player, header=lang)
    for path, body in (("/api/sessions", {}), ("/api/submissions", {"moves": []}), ("/api/rooms", {})):
        response = client.post(path, {"code": today.stored_code.code, **body}, format="json")
        assert response.status_code == 422, path
        assert response.json() == {"error": {"message": message, "index": 0, "token": None}}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "it has 70 characters"), ("fi", "siinä on 70 merkkiä"), ("hr", "ima 70 znakova")],
)
def test_a_code_far_too_long_is_refused_in_the_players_language(player: Player, lang: str, words: str) -> None:
    response = _client(player, header=lang).post("/api/sessions", {"code": "SP1-S4C-" + "A" * 62}, format="json")
    assert response.status_code == 422
    error = response.json()["error"]
    assert words in error["message"] and "SP1-S4C-QWERTYUIOPASDFGHJKLZ" in error["message"]


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "words"), [("en", "Sign up"), ("fi", "Rekisteröidy"), ("hr", "Registrirajte se")])
def test_a_guest_is_asked_in_their_language_to_sign_up_for_the_daily(lang: str, words: str) -> None:
    response = _client(create_guest(), header=lang).post("/api/sessions", {"daily": "SP1-S1C"}, format="json")
    assert response.status_code == 401
    assert response.json()["error"]["message"].startswith(words)
