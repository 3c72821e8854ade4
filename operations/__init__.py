"""What a person running the service needs, kept out of the apps and out of config/.

Health and readiness (operations.health), metrics in Prometheus's format (operations.metrics),
JSON log lines (operations.logs) with a request id per request and socket (operations.requests),
the ASGI layer that serves and counts them (operations.asgi), the graceful stop of a worker
(operations.drain, operations.server), `make run`'s worker and closer (operations.run) and a
one-machine cluster behind nginx (operations.cluster), both starting their processes with
operations.children.
"""
