"""WebSocket paths of the leaderboard app."""

websocket_urlpatterns: list = []
