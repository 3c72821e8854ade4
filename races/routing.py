"""WebSocket paths of the races app."""

from django.urls import path

from races.player_socket import PlayerConsumer

websocket_urlpatterns = [
    path("ws/me/", PlayerConsumer.as_asgi()),
]
