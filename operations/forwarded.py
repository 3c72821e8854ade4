"""Who the client is: the peer's own address, or the one a trusted balancer names.

A balancer (deploy/nginx) connects to the worker itself and says whose request it passes on in
X-Forwarded-For (and how it came in, in X-Forwarded-Proto). Anyone else can send those headers
too, so they are believed only from a peer in TRUSTED_PROXIES (addresses or networks; none by
default). daphne's `--proxy-headers` believes them from anyone, which is why the worker is never
run with it (operations.server refuses it). The operations layer (operations.asgi) puts the
address found here in the scope's "client", so everything after it (Django's REMOTE_ADDR, the
requests served on the event loop, the sockets) counts limits by the real client.
"""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Iterable
from typing import Any

from django.conf import settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

_SCHEMES = {"http": {"http": "http", "https": "https"}, "websocket": {"http": "ws", "https": "wss"}}


def networks_of(entries: Iterable[str]) -> tuple[Network, ...]:
    """TRUSTED_PROXIES' entries as networks (an address is a network of one); ValueError names a wrong one."""
    found = []
    for entry in entries:
        try:
            found.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            raise ValueError(f"{entry!r} is neither an IP address nor a network such as 10.0.0.0/8") from None
    return tuple(found)


@functools.lru_cache(maxsize=8)
def _trusted_networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return networks_of(entries)


def _address(text: str) -> Address | None:
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped  # ::ffff:10.0.0.5 is 10.0.0.5
    return address


def _within(address: Address, networks: tuple[Network, ...]) -> bool:
    return any(address in network for network in networks)


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    """Every value of one header, joined as one list (a header sent twice is one list of both)."""
    values = [bytes(value).decode("latin-1") for key, value in scope.get("headers") or () if bytes(key).lower() == name]
    return ",".join(values) if values else None


def _forwarded_client(chain: str, networks: tuple[Network, ...]) -> str | None:
    """The client X-Forwarded-For names: from the right (the entry our own balancer wrote), the
    first address that is no trusted proxy; every one trusted, the leftmost. None if an entry
    on the way is no address (the list cannot be read, so the peer stays the client)."""
    entries = [entry for entry in chain.split(",") if entry.strip()]
    found: Address | None = None
    for entry in reversed(entries):
        found = _address(entry)
        if found is None:
            return None
        if not _within(found, networks):
            break
    return None if found is None else str(found)


def trusted_peer(scope: dict[str, Any]) -> bool:
    """Whether the connection comes from a proxy in TRUSTED_PROXIES."""
    entries = settings.TRUSTED_PROXIES
    client = scope.get("client")
    if not entries or not client:
        return False
    peer = _address(str(client[0]))
    return peer is not None and _within(peer, _trusted_networks(tuple(entries)))


def forwarded(scope: dict[str, Any]) -> bool:
    """Whether the request says it was passed on by a proxy (trusted or not): it carries X-Forwarded-For."""
    return _header(scope, b"x-forwarded-for") is not None


def direct_from_loopback(scope: dict[str, Any]) -> bool:
    """Whether the request comes from this machine itself, passed on by no proxy: a probe run beside
    the worker (compose's healthcheck, an operator's curl), not a client through the balancer, which
    always sends X-Forwarded-For (deploy/nginx)."""
    client = scope.get("client")
    peer = _address(str(client[0])) if client else None
    return peer is not None and peer.is_loopback and not forwarded(scope)


def resolved(scope: dict[str, Any]) -> dict[str, Any]:
    """The scope with the client (and the scheme) a trusted proxy names; from any other peer, or
    without the header, the scope as the server made it."""
    if not trusted_peer(scope):
        return scope
    chain = _header(scope, b"x-forwarded-for")
    client = _forwarded_client(chain, _trusted_networks(tuple(settings.TRUSTED_PROXIES))) if chain else None
    if client is None:
        return scope
    changed = {**scope, "client": (client, 0)}
    proto = (_header(scope, b"x-forwarded-proto") or "").split(",")[0].strip().lower()
    scheme = _SCHEMES.get(scope["type"], {}).get(proto)
    if scheme is not None:
        changed["scheme"] = scheme
    return changed
