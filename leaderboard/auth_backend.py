"""The log-in backend's old path: a browser session names the backend that signed it in, and one
made before the backend moved to games.players would otherwise be signed out (config/settings.py)."""

from games.players.auth_backend import LimitedModelBackend

__all__ = ["LimitedModelBackend"]
