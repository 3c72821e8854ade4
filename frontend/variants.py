"""The rules page of each game; the picker's choices come from the engine (games.deals.variants)."""

from __future__ import annotations

from typing import Any

from games.deals.variants import catalogue

RULE_PAGES = {
    "spider": "frontend/rules/spider.html",
    "spiderette": "frontend/rules/spiderette.html",
    "russian": "frontend/rules/russian.html",
}


def picker_choices() -> dict[str, Any]:
    """The picker's radio buttons: every game, the suits any game offers, each rule with each game's note."""
    games = catalogue()["games"]
    suits = {s["suits"]: s for game in games for s in game["suits"]}
    rules: dict[str, dict[str, Any]] = {}
    for game in games:
        for rule in game["rules"]:
            entry = rules.setdefault(rule["rule"], {"rule": rule["rule"], "name": rule["name"], "notes": []})
            entry["notes"].append({"game": game["prefix"], "note": rule["note"]})
    return {"games": games, "suits": [suits[n] for n in sorted(suits)], "rules": list(rules.values())}
