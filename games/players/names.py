"""Player names: the one canonical form log-in keys on, and the key that tells look-alikes apart.

Names are ASCII by rule (`NAME_RULE`), so both forms are plain ASCII folds. Nothing here asks the
database: PostgreSQL's case-insensitive lookups fold more than ASCII (`UPPER('ı')` is `I`,
`UPPER('ſ')` is `S`), which is why a name is canonicalised here once and the database only ever
compares the canonical forms.
"""

from __future__ import annotations

import re

# What sign-up accepts.
NAME_RULE = re.compile(r"[A-Za-z0-9_-]{3,20}")
# What log-in accepts: any printable ASCII up to the column's length, so that a staff account made
# with `createsuperuser` outside the sign-up rule can still reach the admin.
LOGIN_RULE = re.compile(r"[!-~]{1,40}")

# Unicode TR39's confusables (confusables.txt) restricted to the characters of NAME_RULE, each class
# written as one of its own members that case folding leaves alone: TR39's prototypes `l` and `O`
# would fold together with `L` and `o`, which look like neither. tests/security/test_names.py
# checks the classes against the confusable-homoglyphs package's copy of that data.
CONFUSABLES = {"1": "|", "I": "|", "l": "|", "0": "0", "O": "0", "m": "rn"}

# The labels the interface shows in place of a name (a guest is "Guest" in every language offered),
# and the words a player might take for the service speaking.
RESERVED = ("Guest", "Vieras", "Gost", "admin", "administrator", "staff", "moderator", "system", "referee")


def login_name(username: str) -> str | None:
    """The canonical form log-in and its failure limit key on, or None for a name no player can
    have (anything but printable ASCII)."""
    name = username.strip()
    return name.lower() if LOGIN_RULE.fullmatch(name) else None


def _skeleton(text: str) -> str:
    return "".join(CONFUSABLES.get(char, char) for char in text)


def name_key(username: str) -> str:
    """The TR39 skeleton, then folded for case: two names get one key when they look alike but for
    the case of some letters (`AIice`, `alice`). `ALICE` and `alice` get two, as `L` and `l` do
    not look alike; those two are the same name anyway (names are unique without regard to case).
    Folding makes no new confusable (`M` is `m` but does not look like `rn`), so one pass does."""
    return _skeleton(username).lower()


RESERVED_KEYS = frozenset(name_key(label) for label in RESERVED)


def is_reserved(username: str) -> bool:
    return name_key(username) in RESERVED_KEYS
