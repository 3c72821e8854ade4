"""Every WebSocket path of SPEC section 8, gathered from the apps."""

websocket_urlpatterns: list = []
