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

# Unicode TR39's confusables (confusables.txt) restricted to the characters of NAME_RULE are three
# classes: `l`, `I` and `1`; `O` and `0`; `m` and `rn`. A name is one name in every case (log-in and
# uniqueness ignore case), and a player may show it in any case, so the key folds case first and
# maps each class closed under case, written as a member in lower case: `i` joins `l` (as `I` does),
# `o` joins `0` (as `O` does). tests/security/test_names.py checks the classes against the
# confusable-homoglyphs package's copy of that data.
CONFUSABLES = {"1": "l", "i": "l", "0": "o", "m": "rn"}

# The labels the interface shows in place of a name (a guest is "Guest" in every language offered),
# and the words a player might take for the service speaking.
RESERVED = ("Guest", "Vieras", "Gost", "admin", "administrator", "staff", "moderator", "system", "referee")


def login_name(username: str) -> str | None:
    """The canonical form log-in and its failure limit key on, or None for a name no player can
    have (anything but printable ASCII)."""
    name = username.strip()
    return name.lower() if LOGIN_RULE.fullmatch(name) else None


def name_key(username: str) -> str:
    """The name folded for case, then its TR39 skeleton: two names get one key when they look alike
    in some case of each (`AIice` and `alice`, `ADMIN` and `admin`, `rnary` and `Mary`, whose `mary`
    is one name with it). The skeleton makes no upper case, so one pass does."""
    return "".join(CONFUSABLES.get(char, char) for char in username.lower())


RESERVED_KEYS = frozenset(name_key(label) for label in RESERVED)


def is_reserved(username: str) -> bool:
    return name_key(username) in RESERVED_KEYS
