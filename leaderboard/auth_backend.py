"""The log-in backend's first path: a browser session names the backend that signed it in, and one
made before the backend moved (to games.players, then accounts) would otherwise be signed out
(config/settings.py)."""

from accounts.auth_backend import LimitedModelBackend

__all__ = ["LimitedModelBackend"]
