"""GET /api/variants: the games and variants from the engine, named in the player's language."""

from __future__ import annotations

import pytest
from django.test import Client

from games.api.views import VARIANTS_MAX_AGE
from games.engine import ALL_VARIANTS, DAILY_VARIANTS
from games.engine.layout import RUSSIAN, SPIDER, SPIDERETTE


@pytest.mark.django_db
def test_every_variant_of_the_engine_with_its_name_and_the_choices_of_each_game() -> None:
    doc = Client().get("/api/variants").json()
    assert [v["id"] for v in doc["variants"]] == list(ALL_VARIANTS)
    assert doc["daily"] == list(DAILY_VARIANTS)
    assert [v["id"] for v in doc["variants"] if v["daily"]] == list(DAILY_VARIANTS)
    names = {v["id"]: v["name"] for v in doc["variants"]}
    assert names["SP1-S2R"] == "Spider · 2 suits (Medium) · Relaxed"
    assert names["SP1-S1C"] == "Spider · 1 suit (Easy)"
    assert names["SD1-S4"] == "Spiderette · 4 suits (Hard)"
    assert names["RU1-C"] == "Russian Solitaire · Classic (Same suit)"
    games = {g["prefix"]: g for g in doc["games"]}
    assert [s["suits"] for s in games["SP1"]["suits"]] == [1, 2, 4]
    assert [r["rule"] for r in games["SP1"]["rules"]] == ["C", "R"]
    assert games["SD1"]["rules"] == [] and games["RU1"]["suits"] == []
    assert (games["SP1"]["columns"], games["SD1"]["sequences"]) == (10, 4)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "name", "russian"),
    [
        ("fi", "Hämähäkki · 2 maata (Keskitaso) · Helpotettu", "Venäläinen pasianssi"),
        ("hr", "Pauk · 2 boje (Srednje) · Ublaženo", "Ruski pasijans"),
    ],
)
def test_names_in_finnish_and_croatian(lang: str, name: str, russian: str) -> None:
    doc = Client().get("/api/variants", HTTP_ACCEPT_LANGUAGE=lang).json()
    assert {v["id"]: v["name"] for v in doc["variants"]}["SP1-S2R"] == name
    assert {g["prefix"]: g["name"] for g in doc["games"]}["RU1"] == russian  # the game's name too


@pytest.mark.django_db
def test_each_games_numbers_are_the_engines() -> None:
    games = {g["prefix"]: g for g in Client().get("/api/variants").json()["games"]}
    for prefix, layout in (("SP1", SPIDER), ("SD1", SPIDERETTE), ("RU1", RUSSIAN)):
        game = games[prefix]
        assert (game["name"], game["columns"], game["sequences"]) == (layout.name, layout.columns, layout.sequences)
        assert (game["deals"], game["goal"], game["goal_total"]) == (layout.deals, layout.goal, layout.goal_total)
    assert [(g["deals"], g["goal"], g["goal_total"]) for g in games.values()] == [
        (5, "sequences", 8),
        (4, "sequences", 4),
        (0, "cards_home", 52),
    ]


@pytest.mark.django_db
def test_the_catalogue_may_be_cached_per_language() -> None:
    response = Client().get("/api/variants")
    assert response["Cache-Control"] == f"public, max-age={VARIANTS_MAX_AGE}"
    assert "Accept-Language" in response["Vary"]  # a cache keeps each language's names apart
    assert not response.cookies  # nothing personal rides along with what a cache keeps


@pytest.mark.django_db
def test_the_schema_documents_the_catalogue_and_the_tables_goal() -> None:
    schema = Client().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert "/api/variants" in schema["paths"]
    parts = schema["components"]["schemas"]
    assert {"deals", "goal", "goal_total"} <= set(parts["GameChoice"]["properties"])
    assert {"deals", "deals_left", "goal", "goal_total", "home_move_cards"} <= set(parts["TableCounts"]["properties"])
