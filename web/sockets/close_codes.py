"""The close codes every socket uses (docs/api.md, "WebSocket close codes"): 4000 + the HTTP status they stand
for (daphne lets an application close with 1000 or 3000-4999 only).
"""

CLOSE_RESTARTING = 4012  # RFC 6455's 1012 "Service Restart": reconnect now (to another worker)
CLOSE_BAD_INPUT = 4400  # the address or its query asks for something that cannot be (a bad board)
CLOSE_SIGNED_OUT = 4401  # this socket needs a player: sign in, or start a game as a guest
CLOSE_NOT_FOUND = 4404  # no such game, room or board (another player's game is "not found" too)
CLOSE_TOO_LARGE = 4413  # a frame over WS_MAX_FRAME_BYTES
CLOSE_TOO_MANY = 4429  # more than RATE_WS_MESSAGES frames in a second

FINAL = range(4400, 4500)  # the client must not reconnect after these
