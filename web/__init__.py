"""The web service's shared machinery, used by every app.

Refusals and their one error shape (web.errors, web.api_errors, web.views), the request guards
(web.middleware), the HTTP handler (web.http), the sockets' base consumer, handshake checks and
close codes (web.sockets), rate limits (web.ratelimit), how async code reaches PostgreSQL and
Redis (web.storage, web.group_commit), and the few reaches into libraries' internals
(web.adapters). It knows no app: nothing here imports games
or leaderboard (tests/foundation/test_layout.py).
"""
