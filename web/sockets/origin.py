"""The WebSocket handshake's Origin check: scheme, host and port, as a browser means "origin": the
site's own (its Host, if in ALLOWED_HOSTS, with its scheme) or one of CSRF_TRUSTED_ORIGINS. Channels'
AllowedHostsOriginValidator compares the host name alone (another port or scheme would pass).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.middleware import BaseMiddleware
from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

Origin = tuple[str, str, int]
DEFAULT_PORTS = {"http": 80, "https": 443}


def parse_origin(text: str) -> Origin | None:
    """(scheme, host, port) of an origin such as ``https://league.example``; None if it is not one."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/") or parts.query:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers") or []:
        if bytes(key).lower() == name:
            return bytes(value).decode("latin-1")
    return None


def _came_in_secure(scope: dict[str, Any]) -> bool:
    if scope.get("scheme") in ("wss", "https"):
        return True
    proxy = settings.SECURE_PROXY_SSL_HEADER  # as Django decides request.is_secure() behind a proxy
    if proxy:
        meta_name, expected = proxy
        header = meta_name.removeprefix("HTTP_").replace("_", "-").lower().encode()
        value = _header(scope, header)
        return value is not None and value.split(",")[0].strip() == expected
    return False


def own_origin(scope: dict[str, Any]) -> Origin | None:
    """The origin the handshake was addressed to, if its Host is one this site answers to."""
    host = _header(scope, b"host")
    if not host:
        return None
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    scheme = "https" if _came_in_secure(scope) else "http"
    return parse_origin(f"{scheme}://{host}")


def origin_allowed(scope: dict[str, Any]) -> bool:
    text = _header(scope, b"origin")
    origin = parse_origin(text) if text else None
    if origin is None:
        return False
    if origin == own_origin(scope):
        return True
    return any(origin == parse_origin(trusted) for trusted in settings.CSRF_TRUSTED_ORIGINS)


class SameOriginValidator(BaseMiddleware):
    """Refuses the handshake (403) unless its Origin is the site's own or a trusted one (Channels'
    OriginValidator sees the Origin alone, not the Host); hands over the inner coroutine, no frame of its own."""

    def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return WebsocketDenier()(scope, receive, send)
        return self.inner(scope, receive, send)
