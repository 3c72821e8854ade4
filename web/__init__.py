"""The web service's shared machinery, used by every app.

Refusals and their one error shape (web.errors, web.api_errors, web.views), the request guards
(web.middleware), what stands in front of Django's ASGI handler (web.bodies, web.request_threads),
the async views' base (web.async_views), the sockets' base consumer, handshake checks and close
codes (web.sockets), rate limits (web.ratelimit), the process's Redis clients
(web.redis_clients), the database backend and prepared statements (web.database), and the one
reach into a library's internals (web.adapters). It knows no app: nothing here imports games
or leaderboard (tests/foundation/test_layout.py).
"""
