"""Every GET address a client can reach, from the URL configuration itself, with its parameters filled.

Walking the resolver (not a hand-made list) means a page or call added later is crawled too;
a parameter the crawl cannot fill fails loudly instead of being skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from django.urls import URLPattern, URLResolver, get_resolver

# Staff-only, or POST-only with no page: nothing a player's GET can read there.
SKIPPED = ("admin/", "i18n/setlang/")
PARAMETER = re.compile(r"<(?:\w+:)?(\w+)>")
CARD = re.compile(r"(?<![A-Za-z0-9])(10|[A2-9TJQK])([SHDC♠♥♦♣])(?![A-Za-z0-9])")
GLYPHS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def routes() -> Iterator[str]:
    def walk(patterns: list[URLPattern | URLResolver], prefix: str) -> Iterator[str]:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, route)
            else:
                yield route

    yield from (route for route in walk(get_resolver().url_patterns, "") if not route.startswith(SKIPPED))


def addresses(values: dict[str, list[str]]) -> Iterator[str]:
    """Each route once per value of each of its parameters (one parameter per route here)."""
    for route in routes():
        names = PARAMETER.findall(route)
        missing = [name for name in names if name not in values]
        assert not missing, f"the crawl cannot fill {missing} in {route!r}: teach it a value"
        if not names:
            yield "/" + route
            continue
        assert len(names) == 1, route
        for value in values[names[0]]:
            yield "/" + PARAMETER.sub(value, route)


def cards_named(text: str) -> set[str]:
    """Cards written as rank and suit letter (9H, TS) or with a suit glyph (9♥, 10♠)."""
    return {("T" if rank == "10" else rank) + GLYPHS.get(suit, suit) for rank, suit in CARD.findall(text)}
