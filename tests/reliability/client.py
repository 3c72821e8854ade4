"""A script-style client of a running service: HTTP with a token, and the play socket."""

from __future__ import annotations

import json
import secrets
from typing import Any

import requests
from websockets.sync.client import ClientConnection, connect

TIMEOUT = 20  # seconds; generous for a loaded two-core machine


def origin_of(ws_url: str) -> str:
    """The origin of the page a browser would open `ws_url` from: same scheme family, host and port."""
    scheme, rest = ws_url.split("://", 1)
    return f"{'https' if scheme == 'wss' else 'http'}://{rest.split('/', 1)[0]}"


class Api:
    def __init__(self, base: str, token: str | None = None) -> None:
        self.base = base
        self.http = requests.Session()
        self.http.trust_env = False  # loopback only: never through a proxy from the environment
        self.token = token

    def at(self, base: str) -> Api:
        """The same player against another server process."""
        return Api(base, self.token)

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Token {self.token}"} if self.token else {}

    def get(self, path: str, **params: Any) -> requests.Response:
        return self.http.get(self.base + path, params=params, headers=self._headers(), timeout=TIMEOUT)

    def post(self, path: str, body: Any = None) -> requests.Response:
        data = None if body is None else json.dumps(body)
        headers = {**self._headers(), "Content-Type": "application/json"}
        return self.http.post(self.base + path, data=data, headers=headers, timeout=TIMEOUT)

    def sign_up(self, name: str | None = None) -> str:
        name = name or f"p{secrets.token_hex(4)}"
        answer = self.post("/api/auth/signup", {"username": name, "password": "a long passphrase 7"})
        assert answer.status_code == 201, answer.text
        self.token = answer.json()["token"]
        return name


def play_socket(ws_base: str, session_id: str, token: str, *, path: str | None = None) -> ClientConnection:
    return connect(
        f"{ws_base}{path or f'/ws/play/{session_id}/'}",
        origin=origin_of(ws_base),  # type: ignore[arg-type]
        additional_headers={"Authorization": f"Token {token}"},
        proxy=None,
        open_timeout=TIMEOUT,
        close_timeout=2,
    )


def receive(socket: ClientConnection, *, timeout: float = TIMEOUT) -> dict[str, Any]:
    message = json.loads(socket.recv(timeout=timeout))
    assert isinstance(message, dict)
    return message
