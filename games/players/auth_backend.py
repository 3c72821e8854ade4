"""The log-in backend's path before it moved to accounts: a browser session names the backend that
signed it in, and one made before the move would otherwise be signed out (config/settings.py).

Django's own backend under the old name: a session only asks it for its player (`get_user`, which
the limited backend does not change), and it never checks a password, since the backend listed
first ends every check. The referee does not import accounts (docs/decisions.md)."""

from django.contrib.auth.backends import ModelBackend as LimitedModelBackend

__all__ = ["LimitedModelBackend"]
