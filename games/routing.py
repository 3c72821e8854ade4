"""WebSocket paths of the games app."""

websocket_urlpatterns: list = []
