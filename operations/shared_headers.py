"""A socket's headers with the parts every handshake repeats held once by the process.

A socket's scope keeps its headers for as long as the socket is open, and daphne makes each of them
anew for each socket: a pair of bytes in a tuple, the name lower-cased. Most names are the same on
every handshake, and a few pairs are fixed by the WebSocket protocol or by browsers. Here those names
and pairs are constants of this module, used in place of the socket's equal copies; no value a
client sends is kept beyond its own socket (bench/README.md, memory per play socket).
"""

from __future__ import annotations

from collections.abc import Iterable

Header = tuple[bytes, bytes]

_NAMES = {
    name: name
    for name in (
        b"accept",
        b"accept-encoding",
        b"accept-language",
        b"authorization",
        b"cache-control",
        b"connection",
        b"cookie",
        b"host",
        b"origin",
        b"pragma",
        b"sec-websocket-extensions",
        b"sec-websocket-key",
        b"sec-websocket-protocol",
        b"sec-websocket-version",
        b"upgrade",
        b"user-agent",
        b"x-forwarded-for",
        b"x-forwarded-proto",
        b"x-real-ip",
        b"x-request-id",
    )
}
_PAIRS = {
    pair: pair
    for pair in (
        (b"cache-control", b"no-cache"),
        (b"connection", b"Upgrade"),
        (b"connection", b"upgrade"),
        (b"pragma", b"no-cache"),
        (b"sec-websocket-extensions", b"permessage-deflate; client_max_window_bits"),
        (b"sec-websocket-version", b"13"),
        (b"upgrade", b"websocket"),
        (b"x-forwarded-proto", b"http"),
        (b"x-forwarded-proto", b"https"),
    )
}


def shared(headers: Iterable[Header]) -> list[Header]:
    """`headers`, equal and in order, each name and pair this module knows replaced by its own."""
    kept = []
    for pair in headers:
        known = _PAIRS.get(pair)
        if known is None:
            name, value = pair
            known_name = _NAMES.get(name)
            known = pair if known_name is None or known_name is name else (known_name, value)
        kept.append(known)
    return kept
