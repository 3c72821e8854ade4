"""WebSocket paths of the games app."""

from django.urls import path

from games.consumers import PlayConsumer

websocket_urlpatterns = [
    path("ws/play/<str:session_id>/", PlayConsumer.as_asgi()),
]
