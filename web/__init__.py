"""The web service's shared machinery, used by every app.

Refusals and their one error shape (web.errors, web.api_errors, web.views), the request guards
(web.middleware), what stands in front of Django's ASGI handler (web.bodies, web.request_threads),
the async views' base (web.async_views), the sockets' base consumer, handshake checks and close
codes (web.sockets), rate limits (web.ratelimit), and how async code reaches PostgreSQL and Redis
(web.storage, web.group_commit). It knows no app: nothing here imports games
or leaderboard (tests/foundation/test_layout.py).
"""
