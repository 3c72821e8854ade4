"""WebSockets: the consumer every socket builds on (consumer), the handshake's origin check
(origin) and token sign-in (auth), and the close codes (close_codes)."""
