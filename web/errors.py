"""Refusals shared by the HTTP API and the WebSockets, in the one error shape of docs/api.md."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    status = 400

    def __init__(
        self,
        message: str,
        *,
        index: int | None = None,
        token: str | None = None,
        retry_after: int | None = None,
        rule: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.index = index
        self.token = token
        self.retry_after = retry_after
        self.rule = rule

    def body(self) -> dict[str, Any]:
        return error_body(self.message, index=self.index, token=self.token, rule=self.rule)


class BadRequest(ServiceError):
    status = 400


class NotAuthenticated(ServiceError):
    status = 401


class Forbidden(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


class Unprocessable(ServiceError):
    status = 422


class RateLimited(ServiceError):
    status = 429


class Unavailable(ServiceError):
    status = 503


def error_body(
    message: str, *, index: int | None = None, token: str | None = None, rule: str | None = None
) -> dict[str, Any]:
    """The error document; ``rule`` appears only when a rule was broken."""
    error: dict[str, Any] = {"message": message, "index": index, "token": token}
    if rule is not None:
        error["rule"] = rule
    return {"error": error}
