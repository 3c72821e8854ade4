"""A socket's headers with the names and pairs every handshake repeats held once (operations.shared_headers)."""

from __future__ import annotations

from operations.shared_headers import shared


def _handshake(key: bytes) -> list[tuple[bytes, bytes]]:
    """A browser's headers as daphne puts them in the scope: each made anew for each socket."""
    return [
        (name.encode(), value.encode())
        for name, value in (
            ("host", "league.example"),
            ("upgrade", "websocket"),
            ("connection", "Upgrade"),
            ("sec-websocket-key", key.decode()),
            ("sec-websocket-version", "13"),
            ("x-client-hint", "yes"),
        )
    ]


def test_the_headers_are_kept_equal_and_in_order() -> None:
    headers = _handshake(b"dGhlIHNhbXBsZSBub25jZQ==")
    assert shared(headers) == headers


def test_two_sockets_share_the_names_and_fixed_pairs_but_not_their_own_values() -> None:
    first = shared(_handshake(b"a" * 24))
    second = shared(_handshake(b"b" * 24))
    host, upgrade, connection, key, version, hint = zip(first, second, strict=True)
    assert upgrade[0] is upgrade[1] and connection[0] is connection[1] and version[0] is version[1]
    assert host[0][0] is host[1][0] and key[0][0] is key[1][0]  # one name for every socket
    assert key[0][1] != key[1][1]  # each socket's own key
    assert hint[0][0] is not hint[1][0]  # a name this module does not know stays the socket's own


def test_a_pair_already_shared_or_unknown_is_kept_as_it_is() -> None:
    headers = shared(_handshake(b"c" * 24))
    again = shared(headers)
    assert all(a is b for a, b in zip(again[:3], headers[:3], strict=True))
    assert again[5] is headers[5]
