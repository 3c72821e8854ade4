"""Django's PostgreSQL backend with a pool check that needs no round trip (see base.py)."""
