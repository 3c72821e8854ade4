"""The games and variants a player can pick, with the seeds' names for them."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

# Variant ids are game codes without the deal letters (SPEC section 8).
GAMES = [
    {
        "key": "spider",
        "name": "Spider",
        "suits": [1, 2, 4],
        "rules": True,  # Classic or Relaxed, with 2 and 4 suits
        "prefix": "SP1",
    },
    {"key": "spiderette", "name": "Spiderette", "suits": [1, 2, 4], "rules": False, "prefix": "SD1"},
    {"key": "russian", "name": "Russian Solitaire", "suits": [], "rules": True, "prefix": "RU1"},
]

RULE_PAGES = {
    "spider": "frontend/rules/spider.html",
    "spiderette": "frontend/rules/spiderette.html",
    "russian": "frontend/rules/russian.html",
}

LEVELS = {1: _("Easy"), 2: _("Medium"), 4: _("Hard")}
