"""Who the client is: the peer's own address, or the one a balancer in TRUSTED_PROXIES names in
X-Forwarded-For (docs/operations.md, "Client addresses"); operations.asgi puts it in the scope."""

from __future__ import annotations

import functools
import ipaddress
from typing import Any

from django.conf import settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

_SCHEMES = {"http": {"http": "http", "https": "https"}, "websocket": {"http": "ws", "https": "wss"}}


@functools.lru_cache(maxsize=8)
def _trusted_networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    # config/settings.py refuses an entry that is neither an address nor a network.
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in entries)


def _address(text: str) -> Address | None:
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped  # ::ffff:10.0.0.5 is 10.0.0.5
    return address


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    """Every value of one header, joined as one list (a header sent twice is one list of both)."""
    values = [bytes(value).decode("latin-1") for key, value in scope.get("headers") or () if bytes(key).lower() == name]
    return ",".join(values) if values else None


def _forwarded_client(chain: str, networks: tuple[Network, ...]) -> str | None:
    """From the right (our balancer's entry), the first address that is no trusted proxy; all trusted,
    the leftmost. None if an entry on the way is no address (then the peer stays the client)."""
    found: Address | None = None
    for entry in reversed([entry for entry in chain.split(",") if entry.strip()]):
        found = _address(entry)
        if found is None:
            return None
        if not any(found in network for network in networks):
            break
    return None if found is None else str(found)


def trusted_peer(scope: dict[str, Any]) -> bool:
    """Whether the connection comes from a proxy in TRUSTED_PROXIES."""
    client = scope.get("client")
    if not settings.TRUSTED_PROXIES or not client:
        return False
    peer = _address(str(client[0]))
    return peer is not None and any(peer in net for net in _trusted_networks(tuple(settings.TRUSTED_PROXIES)))


def direct_from_loopback(scope: dict[str, Any]) -> bool:
    """A probe beside the worker: from loopback, without the X-Forwarded-For the balancer always sends."""
    client = scope.get("client")
    peer = _address(str(client[0])) if client else None
    return peer is not None and peer.is_loopback and _header(scope, b"x-forwarded-for") is None


def resolved(scope: dict[str, Any]) -> dict[str, Any]:
    """The scope with the client (and the scheme) a trusted proxy names; else as the server made it."""
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
