"""WebSockets: the base consumer, group-fed sockets, handshake checks, sign-ins and close codes."""
