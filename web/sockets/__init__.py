"""WebSockets: the consumer every socket builds on (consumer), the sockets fed by channel-layer
groups (live), the handshake's origin check (origin) and token sign-in (auth), a socket's sign-in
kept between messages (sign_ins), and the close codes (close_codes)."""
