"""Every WebSocket path of docs/api.md, gathered from the apps."""

from games.routing import websocket_urlpatterns as games_ws
from leaderboard.routing import websocket_urlpatterns as leaderboard_ws
from races.routing import websocket_urlpatterns as races_ws

websocket_urlpatterns = [*games_ws, *leaderboard_ws, *races_ws]
