"""What a play socket sends after the first session document: only what changed (docs/api.md, deltas).

A *change* turns one JSON value into another; `merge(old, diff(old, new)) == new` for any two.
Which kind it is follows from the old value, so nothing is tagged:

- old and new are objects: an object of the keys whose value changed or is new, each with the
  change of its value, and under `"-"` the keys that are gone;
- old and new are arrays of the same length whose items are objects or arrays (the columns): an
  object of the changed items by index (`"3"`), each with its change;
- old and new are arrays otherwise: a list of splices `[at, cut, put]`, applied in order, each
  replacing `cut` items from index `at` of the array as it stands by the items `put`;
- anything else: the new value itself.

A change carries only values of the new document, and indexes and key names of the old one the
socket sent before: never more than the whole document would (fair play). A socket that waits
keeps the last document it sent as its compact JSON, compressed against the words every document
repeats (`keep`; what it saves: bench/README.md, memory per play socket); one that plays keeps
it as it is (games.sessions.last_sent).
"""

from __future__ import annotations

import zlib
from difflib import SequenceMatcher
from typing import Any

import orjson

from games.engine.cards import NAME_OF

GONE = "-"  # the key naming an object's removed keys; no document has a key of that name
_SCALARS = (str, int, float, bool, type(None))
_CONTAINERS = (dict, list)  # a tuple: `dict | list` would make a union on every call
_ABSENT = object()
FRAME_KEYS = frozenset({"type", "base", "pushed"})  # a frame's own keys, beside the document's


# What session documents repeat, the most frequent last (zlib looks back from the end first): keys
# and values as selectors.session_document writes them, every card's name, the moves' shapes.
_WORDS = (
    '"hint_refusal":null,"play_out":false,"hints":0,'
    '"tap":{},"best":{},"legal":[],"result":null,"room":null,"starts_in_ms":0,"undos":0,"elapsed_ms":0,'
    '"foundations":{"S":[],"H":[],"D":[],"C":[]},"removed":[],"stock":0,"undo_available":0,"won":false},'
    '"table":{"columns":10,"deals":5,"deals_left":4,"sequences":8,"foundations":0,"home_move_cards":0,'
    '"goal":"sequences","goal_total":8},"finished":false,"started_at":"2026-12-04T00:00:00.000000+00:00",'
    '"finished_at":null,"actions":0,"score":500,"moves":0,{"id":"","code":"SP1-S4C-","variant":"SP1-S4C",'
    '"game":"spider","ranked":true,"board":"code:","daily":null,"view":{"code":"SP1-S4C-","columns":['
    + ",".join(f'"{name}"' for name in NAME_OF)
    + ',"1:1>2","D","U",{"down":0,"up":["'
).encode()


# Raw deflate (no header or checksum, which nothing kept in memory needs) with a 4 KB window and
# small tables: a document and the words fit, and each compressor's state stays small, where the
# defaults' came from mmap and fresh pages on every action (bench/README.md).
_WINDOW_BITS = 12
_RAW = -_WINDOW_BITS
_MEMORY_LEVEL = 2
if len(_WORDS) > (1 << _WINDOW_BITS) - 262:  # zlib's window holds the dictionary and what follows it
    raise ValueError("the preset words are longer than the compression window")


def keep(encoded: bytes) -> bytes:
    """What a socket keeps of a document it sent, given the document's JSON (`kept_document` reads it)."""
    packer = zlib.compressobj(1, zlib.DEFLATED, _RAW, _MEMORY_LEVEL, zdict=_WORDS)
    return packer.compress(encoded) + packer.flush()


def kept_document(kept: bytes) -> Any:
    return orjson.loads(zlib.decompressobj(_RAW, zdict=_WORDS).decompress(kept))


class Unchangeable(ValueError):
    """Two values no change can express: an array that becomes an object, a key named `GONE`."""


def diff(old: Any, new: Any) -> Any:
    """The change that turns `old` into `new` (equal values: an empty object or list, or `new`)."""
    if isinstance(old, dict) and isinstance(new, dict):
        return _diff_object(old, new)
    if isinstance(old, list) and isinstance(new, list):
        if len(old) == len(new) and new and all(isinstance(item, _CONTAINERS) for item in new):
            return {str(i): diff(a, b) for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b}
        return _splices(old, new)
    if isinstance(old, list) and isinstance(new, dict):
        raise Unchangeable("an array that becomes an object")  # it would read as a change by index
    return new


def _diff_object(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    if GONE in old or GONE in new:
        raise Unchangeable(f"a key named {GONE!r}")
    change: dict[str, Any] = {}
    added = 0
    for key, value in new.items():
        was = old.get(key, _ABSENT)
        if was != value:  # a scalar, or a new key, is its own change: no call to diff for it
            if was is _ABSENT:
                added += 1
                change[key] = value
            else:
                change[key] = diff(was, value) if isinstance(value, _CONTAINERS) else value
    if len(old) + added != len(new):  # then some key is gone (a document's keys rarely change)
        change[GONE] = [key for key in old if key not in new]
    return change


def _splices(old: list[Any], new: list[Any]) -> list[list[Any]]:
    start, end_old, end_new = 0, len(old), len(new)
    while start < end_old and start < end_new and old[start] == new[start]:
        start += 1
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old, end_new = end_old - 1, end_new - 1
    if start == end_old == end_new:
        return []
    middle_old, middle_new = old[start:end_old], new[start:end_new]
    whole = [[start, end_old - start, middle_new]]
    if not middle_old or not middle_new or not all(isinstance(item, _SCALARS) for item in middle_old + middle_new):
        return whole
    # A legal list changes here and there (the columns an action touched): one splice each.
    spliced = _walk(middle_old, middle_new, start)
    if spliced is None:
        matcher = SequenceMatcher(None, middle_old, middle_new, autojunk=False)
        spliced = [
            [start + j1, i2 - i1, middle_new[j1:j2]] for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"
        ]
    return spliced if len(orjson.dumps(spliced)) < len(orjson.dumps(whole)) else whole


def _walk(old: list[Any], new: list[Any], offset: int) -> list[list[Any]] | None:
    """The splices of two lists of scalars whose common items keep their order (a legal list:
    items only come and go), in one pass; None where an item moved, for SequenceMatcher to find.

    An old item the new list lacks is cut, a new item the old list lacks is put, the rest must
    match in turn; a run of cuts and puts between two matches is one splice, at its index in
    the new list (which is the array's as it stands, the splices before it applied)."""
    in_old, in_new = set(old), set(new)
    spliced: list[list[Any]] = []
    i = j = 0
    while True:
        while i < len(old) and j < len(new) and old[i] == new[j]:
            i, j = i + 1, j + 1
        if i == len(old) and j == len(new):
            return spliced
        at, cut_from = j, i
        while i < len(old) and old[i] not in in_new:
            i += 1
        while j < len(new) and new[j] not in in_old:
            j += 1
        if (i, j) == (cut_from, at):
            return None  # an item in both lists, out of turn: it moved (or is there twice)
        spliced.append([offset + at, i - cut_from, new[at:j]])


def merge(old: Any, change: Any) -> Any:
    """`old` with `change` applied (a new value: `old` is left as it was)."""
    if isinstance(old, dict) and isinstance(change, dict):
        merged = {key: value for key, value in old.items() if key not in change.get(GONE, ())}
        for key, value in change.items():
            if key != GONE:
                merged[key] = merge(old[key], value) if key in old else value
        return merged
    if isinstance(old, list) and isinstance(change, dict):
        items = list(old)
        for index, value in change.items():
            items[int(index)] = merge(items[int(index)], value)
        return items
    if isinstance(old, list) and isinstance(change, list):
        items = list(old)
        for at, cut, put in change:
            items[at : at + cut] = put
        return items
    return change


def next_frame(document: dict[str, Any], before: dict[str, Any] | None, *, pushed: bool = False) -> tuple[bytes, bytes]:
    """The frame that brings a socket's client from the document it was sent last (`before`; None:
    nothing yet) to `document`, and `document`'s own JSON (what `keep` takes).

    The whole document (`{"type": "session", ...}`) first, and whenever a delta would not be
    smaller; otherwise `{"type": "delta", "base", "actions", ...the change of the document}`:
    `base` is the log length of the document the change applies to, `actions` (always there)
    that of the document it makes. `pushed`: the frame answers nothing the socket asked (the game
    changed elsewhere), and says so with `"pushed": true`.
    """
    encoded = orjson.dumps(document)
    head = b'{"type":"session","pushed":true' if pushed else b'{"type":"session"'
    whole = head + b"," + encoded[1:] if document else head + b"}"
    if before is None or FRAME_KEYS & document.keys():
        return whole, encoded
    try:
        changes = diff(before, document)
    except Unchangeable:
        return whole, encoded
    own: dict[str, Any] = {"type": "delta", "pushed": True} if pushed else {"type": "delta"}
    frame = orjson.dumps({**own, "base": before.get("actions"), "actions": document.get("actions"), **changes})
    return (frame if len(frame) < len(whole) else whole), encoded


def changes_of(frame: dict[str, Any]) -> dict[str, Any]:
    """A delta frame's change of the document: all of it but its own keys (`type`, `base`, `pushed`)."""
    return {key: value for key, value in frame.items() if key not in FRAME_KEYS}
