"""The hottest API requests served on the event loop: no trip to a thread, no Django request cycle.

Play's common action is judged on the loop (games/play_loop.py); this does as much for the hottest
HTTP requests. A URL pattern made by `web.lean.lean(View, method, on_loop=handler)` names an async
`handler(request, **kwargs)` that answers from the loop's own clients (web.storage) or raises
`Handover`: the request then goes to Django's path
(web/http.py) as before, which serves it and words any refusal. A handler hands over before it has
done anything that counts (a rate-limit hit, a write), so no request is served twice.

The loop takes only a request whose answer it can give exactly as Django's lean chain would:
- the method the lean view serves itself, a plain JSON Accept, no `format` parameter, a numeric
  Content-Length if any;
- no Cookie (a browser's session, CSRF token and language cookie stay Django's) and either no
  Authorization or `Token <key>` for a player this process or Redis knows (games/players/token_auth.py);
- a Host Django allows, and no redirect owed (SECURE_SSL_REDIRECT over plain HTTP, PREPEND_WWW).
Its answer is the same document with the headers the lean chain's middleware adds (security,
CSP, frame options, language, Vary), and a refusal (a ServiceError) the same error shape, status
and Retry-After. tests/foundation/test_loop_http.py holds every answer to Django's, byte for byte.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import orjson
from django.conf import settings
from django.core.signals import setting_changed
from django.db import DatabaseError, DataError, connections
from django.http import QueryDict
from django.http.request import split_domain_port, validate_host
from django.urls import Resolver404, get_resolver
from rest_framework.settings import api_settings

from web.api_errors import database_refusal
from web.errors import ServiceError
from web.language import language_of, speaking
from web.sockets.auth import token_authentication

Headers = list[tuple[bytes, bytes]]
_JSON = b"application/json"
# Accept headers that DRF's negotiation answers with plain application/json (no indent or version
# parameter): web.lean serves them itself, and the loop does too; any other goes to DRF.
PLAIN_ACCEPTS = frozenset({"", "*/*", "application/json", "application/json, */*"})


class Handover(Exception):
    """The loop leaves this request to Django's path (web/http.py)."""


@dataclass(slots=True)
class Request:
    """What a loop handler knows of its request."""

    method: str
    path: str
    query: QueryDict
    headers: dict[str, str]  # names in lower case
    body: bytes
    client: str  # the address, as REMOTE_ADDR
    player: Any  # the token's player (games.models.Player); None: nobody signed in (a session goes to Django)


@dataclass(slots=True)
class Answer:
    status: int
    document: Any
    retry_after: int | None = None


Handler = Callable[..., Awaitable[Answer]]


@dataclass(frozen=True, slots=True)
class Route:
    """A lean view's loop handler (web.lean), and what its answers say of it."""

    method: str
    handler: Handler
    allow: str


def route_of(view: Callable[..., Any], method: str, handler: Handler, allow: str) -> None:
    """Mark the URL callback `view` as served on the loop by `handler` (web.lean.lean does)."""
    view.on_loop = Route(method, handler, allow)  # type: ignore[attr-defined]


async def serve(scope: dict[str, Any], body: bytes) -> tuple[int, Headers, bytes] | None:
    """The answer to a request the loop takes (status, headers, body); None: Django's path serves it."""
    taken = _taken(scope)
    if taken is None:
        return None
    route, kwargs, headers, secure = taken
    language = _language(headers.get("accept-language"))
    with speaking(language):
        try:
            player, by_token = await _player(headers)
            request = Request(
                method=route.method,
                path=scope["path"],
                query=_query(scope.get("query_string", b"")),
                headers=headers,
                body=body,
                client=str((scope.get("client") or ("unknown",))[0] or "unknown"),
                player=player,
            )
            answer = await route.handler(request, **kwargs)
        except Handover:
            return None
        except ServiceError as refusal:
            answer = _refused(refusal)
        except DatabaseError as error:  # after a handler counted or wrote: answered here, as Django's path would
            answer = _refused(database_refusal(error, data=isinstance(error, DataError)))
    content = _encode(answer.document)
    # A session is read (so Vary names Cookie) when no token signed the request in: DRF's session
    # authenticator then looks for one, as Django's chain does.
    return answer.status, _headers(answer, route.allow, len(content), language, secure, not by_token), content


def _taken(scope: dict[str, Any]) -> tuple[Route, dict[str, Any], dict[str, str], bool] | None:
    """The route and what the request says, if the loop can answer it as Django would."""
    path = scope["path"]
    if not path.startswith("/api/") or scope.get("root_path") or settings.PREPEND_WWW or not _available():
        return None
    found = _resolve(path)
    if found is None:
        return None
    route, kwargs = found
    if scope["method"] != route.method:
        return None
    headers = {bytes(k).decode("latin-1").lower(): bytes(v).decode("latin-1") for k, v in scope["headers"]}
    if "cookie" in headers or headers.get("accept", "") not in PLAIN_ACCEPTS:
        return None
    if not headers.get("content-length", "0").isdigit():
        return None  # BodySizeLimitMiddleware words it
    query = scope.get("query_string", b"")
    if not query.isascii():
        return None  # raw bytes a client did not percent-encode: Django decodes them its way
    format_param = api_settings.URL_FORMAT_OVERRIDE
    if format_param and format_param.encode() in query:
        return None  # DRF's dispatch renders or refuses that format (even a look-alike: Django decides)
    if not _host_allowed(headers.get("host")):
        return None
    secure = _secure(scope, headers)
    if settings.SECURE_SSL_REDIRECT and not secure:
        return None
    if settings.DISALLOWED_USER_AGENTS:
        return None  # CommonMiddleware's check: not copied here
    return route, kwargs, headers, secure


@functools.cache
def _available() -> bool:
    """The loop's clients are PostgreSQL's and Redis's: on the embedded default, Django's path serves all."""
    return bool(settings.REDIS_URL) and connections["default"].vendor == "postgresql"


@functools.lru_cache(maxsize=4096)
def _resolve(path: str) -> tuple[Route, dict[str, Any]] | None:
    """The loop route of `path`, if its view has one (paths repeat: boards are read again and again)."""
    try:
        match = get_resolver().resolve(path)
    except Resolver404:
        return None
    route = getattr(match.func, "on_loop", None)
    return (route, dict(match.kwargs)) if isinstance(route, Route) and not match.args else None


@functools.lru_cache(maxsize=256)  # a client names the Host: bounded
def _host_allowed(host: str | None) -> bool:
    """Whether CommonMiddleware's host check (request.get_host()) lets this Host through."""
    if host is None or settings.USE_X_FORWARDED_HOST:
        return False  # Django then reads another header or SERVER_NAME: its path decides
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    domain, _ = split_domain_port(host)
    return bool(domain) and validate_host(domain, allowed)


def _secure(scope: dict[str, Any], headers: dict[str, str]) -> bool:
    """request.is_secure(), as Django's ASGI request answers it."""
    proxy = settings.SECURE_PROXY_SSL_HEADER
    if proxy:
        name, secure_value = proxy
        value = headers.get(name.removeprefix("HTTP_").replace("_", "-").lower())
        if value is not None:
            return value.split(",", 1)[0].strip() == secure_value
    return scope.get("scheme") == "https"


@functools.lru_cache(maxsize=256)
def _query(text: bytes) -> QueryDict:
    """The query's parameters. A QueryDict is immutable as made here, so requests asking the same
    query (a board's first page, every few seconds from each watcher) share one, parsed once."""
    return QueryDict(text)


@functools.lru_cache(maxsize=256)
def _language(accept_language: str | None) -> str:
    """The language LocaleMiddleware picks for a request without cookies."""
    headers = [] if accept_language is None else [(b"accept-language", accept_language.encode("latin-1"))]
    return language_of({"headers": headers, "cookies": {}})


async def _player(headers: dict[str, str]) -> tuple[Any, bool]:
    """The token's player and True, or None and False without an Authorization header; Handover for
    anything only Django's authenticators can answer (another scheme, a token this process and Redis
    do not know, one past its time or of an inactive player: refused there, in words)."""
    authorization = headers.get("authorization")
    if authorization is None:
        return None, False
    parts = authorization.split()
    if len(parts) != 2 or parts[0].lower() != "token":
        raise Handover()
    on_loop = _on_loop_authentication()
    player = await on_loop(parts[1]) if on_loop is not None else None
    if player is None:
        raise Handover()
    return player, True


@functools.cache
def _on_loop_authentication() -> Callable[[str], Awaitable[Any]] | None:
    """The token authentication's answer on the loop, if it has one (asked once, not per request)."""
    authenticate = getattr(token_authentication(), "authenticate_token", None)
    if authenticate is None:
        return None

    async def player(key: str) -> Any:
        try:
            return (await authenticate(key))[0]
        except Exception:  # noqa: BLE001 - refused, or the database away: Django's path answers, in words
            return None

    return player


def _refused(refusal: ServiceError) -> Answer:
    return Answer(refusal.status, refusal.body(), refusal.retry_after)


def _encode(document: Any) -> bytes:
    """The document as DRF's JSONRenderer writes it (compact, UTF-8, U+2028 and U+2029 escaped)."""
    content = orjson.dumps(document)
    if b"\xe2\x80\xa8" in content or b"\xe2\x80\xa9" in content:
        content = content.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")
    return content


def _headers(answer: Answer, allow: str, length: int, language: str, secure: bool, session_read: bool) -> Headers:
    """The headers the lean view and the lean chain's middleware put on this answer, in their order."""
    headers: Headers = [(b"Content-Type", _JSON)]
    if answer.retry_after is not None:
        headers.append((b"Retry-After", str(answer.retry_after).encode()))
    headers += [
        (b"Allow", allow.encode()),
        (b"X-Frame-Options", settings.X_FRAME_OPTIONS.upper().encode()),
        (b"Content-Length", str(length).encode()),
        (b"Vary", b"Accept-Language, Cookie" if session_read else b"Accept-Language"),
        (b"Content-Language", language.encode()),
    ]
    headers += _policies(answer.status)
    headers += _security(secure)
    return headers


def _policies(status: int) -> Headers:
    """The CSP headers CSPMiddleware adds to a JSON answer under /api/."""
    if status in (404, 500) and settings.DEBUG:
        return []  # its exemption of Django's debug pages
    return _csp()


@functools.cache
def _csp() -> Headers:
    from csp.constants import HEADER, HEADER_REPORT_ONLY
    from csp.utils import build_policy

    found: Headers = []
    for name, report_only, setting in (
        (HEADER, False, "CONTENT_SECURITY_POLICY"),
        (HEADER_REPORT_ONLY, True, "CONTENT_SECURITY_POLICY_REPORT_ONLY"),
    ):
        policy = build_policy(report_only=report_only)
        excluded = tuple((getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES", None) or ())
        if policy and not (excluded and "/api/".startswith(excluded)):
            found.append((name.encode(), policy.encode()))
    return found


def _security(secure: bool) -> Headers:
    """SecurityMiddleware's headers (HSTS over HTTPS only)."""
    found: Headers = []
    if settings.SECURE_HSTS_SECONDS and secure:
        hsts = f"max-age={settings.SECURE_HSTS_SECONDS}"
        if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
            hsts += "; includeSubDomains"
        if settings.SECURE_HSTS_PRELOAD:
            hsts += "; preload"
        found.append((b"Strict-Transport-Security", hsts.encode()))
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        found.append((b"X-Content-Type-Options", b"nosniff"))
    policy = settings.SECURE_REFERRER_POLICY
    if policy:
        text = ",".join(v.strip() for v in policy.split(",")) if isinstance(policy, str) else ",".join(policy)
        found.append((b"Referrer-Policy", text.encode()))
    if settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
        found.append((b"Cross-Origin-Opener-Policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY.encode()))
    return found


def _forget(**kwargs: Any) -> None:
    """Settings changed (tests do it): what was worked out from them is worked out again."""
    _csp.cache_clear()
    _available.cache_clear()
    _resolve.cache_clear()
    _language.cache_clear()
    _on_loop_authentication.cache_clear()
    _host_allowed.cache_clear()
    _query.cache_clear()  # its charset and field limit are settings


setting_changed.connect(_forget, dispatch_uid="loop_http_settings")
