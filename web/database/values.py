"""A database wrapper for preparing statement values only (its `ops`, its `vendor`): one per process.

`connections[alias]` (and the `connection` proxy) makes a wrapper per context the first time it is
asked, and each request the event loop serves is a context of its own: a wrapper made per
submission, with its features, operations and introspection objects, was 2.7% of a submission's
worker CPU (bench/README.md). Preparing a value needs none of a connection's state, so this
wrapper never connects.
"""

from __future__ import annotations

import functools

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper


@functools.cache
def preparing_wrapper() -> BaseDatabaseWrapper:
    """The default database's wrapper, made once, for preparing values (never for a query)."""
    return connections.create_connection(DEFAULT_DB_ALIAS)
