"""WebSocket paths of the leaderboard app."""

from django.urls import path, re_path

from leaderboard.consumers import LeaderboardConsumer, RoomConsumer

websocket_urlpatterns = [
    re_path(r"^ws/leaderboards/(?P<board>[^/]+)/$", LeaderboardConsumer.as_asgi()),
    path("ws/rooms/<str:room_id>/", RoomConsumer.as_asgi()),
]
