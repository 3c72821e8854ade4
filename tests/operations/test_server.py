"""The worker's server (operations.server) where it replaces a part of daphne's or autobahn's: pins of
what it copies or stands in for."""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
from collections.abc import Callable
from typing import Any

from daphne.server import Server

from operations.server import GracefulServer


def _statements(function: Callable[..., Any]) -> list[str]:
    """The function's body as the parser reads it, without its docstring."""
    definition = ast.parse(textwrap.dedent(inspect.getsource(function))).body[0]
    assert isinstance(definition, ast.FunctionDef)
    body = definition.body
    if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return [ast.dump(statement) for statement in body]


def _expression(text: str) -> str:
    return ast.dump(ast.parse(text, mode="eval").body)


def test_each_application_is_made_as_daphne_makes_it_with_an_inbox_for_its_queue() -> None:
    """GracefulServer makes applications as daphne's create_application does, but for the queue: a
    daphne that makes its applications otherwise fails this, and the copy is brought in line."""
    queue, inbox = _expression("asyncio.Queue()"), _expression("Inbox()")
    theirs = [statement.replace(queue, inbox) for statement in _statements(Server.create_application)]
    assert _statements(GracefulServer._application_as_daphne_makes_it) == theirs


def test_autobahn_uses_a_socket_s_send_queue_only_as_the_list_that_stands_in_for_it() -> None:
    """operations.websocket.SendQueue has what autobahn uses of its deque: an autobahn that uses more
    fails this."""
    from autobahn.websocket import protocol

    from operations.websocket import SendQueue

    source = inspect.getsource(protocol)
    assert set(re.findall(r"send_queue\.(\w+)", source)) == {"append", "popleft"}
    assert re.findall(r"self\.send_queue = (.+)", source) == ["deque()"]  # made in one place, replaced after it
    queue = SendQueue()
    queue.append((b"a", False))
    queue.append((b"b", True))
    assert len(queue) == 2 and queue.popleft() == (b"a", False) and list(queue) == [(b"b", True)]


def _autobahn_source() -> str:
    from autobahn.twisted import websocket as twisted_websocket
    from autobahn.websocket import protocol
    from daphne import ws_protocol

    return "\n".join(inspect.getsource(module) for module in (protocol, twisted_websocket, ws_protocol))


def test_the_state_an_open_socket_reads_from_its_class_is_where_autobahn_starts_it() -> None:
    """operations.websocket.AT_REST holds each per-socket value as autobahn's _connectionMade first sets
    it; what is made later (by the handshake, as a frame or message begins) as autobahn and daphne
    set it when there is none (an agreed protocol, a frame begun): an autobahn that starts one
    otherwise fails this, and AT_REST is brought in line."""
    from autobahn.websocket.protocol import WebSocketProtocol

    from operations.websocket import AT_REST

    started, source = inspect.getsource(WebSocketProtocol._connectionMade), _autobahn_source()
    ours = {"current_frame_masker", "utf8validator"}  # None between frames and messages: see the test below
    for name in AT_REST.keys() - ours:
        first = re.search(rf"self\.{re.escape(name)}(?:: [^=\n]+)? = (.+)", started)
        if first is not None:
            assert first.group(1) == repr(AT_REST[name]), (name, first.group(0))
        else:
            assert f"self.{name} = {AT_REST[name]!r}\n" in source, name


def test_what_stands_in_for_autobahn_s_counters_and_deferreds_is_all_autobahn_asks_of_them() -> None:
    """operations.websocket's stand-ins: the traffic counters are only ever added to, the two Deferreds
    only resolved, and the listeners' results only written where there are listeners (none here)."""
    source = _autobahn_source()
    uses = re.findall(r"self\.trafficStats(.*)", source)
    assert uses and all(re.match(r" = TrafficStats\(\)$|\.\w+ \+= ", use) for use in uses), uses
    for deferred in ("is_open", "is_closed"):
        assert set(re.findall(rf"(\S*)self\.{deferred}\b(.)", source)) == {("", " "), ("txaio.resolve(", ",")}
    from autobahn import util

    fire = inspect.getsource(util.ObservableMixin.fire)
    assert fire.index("if self._listeners is None:") < fire.index("self._results[event]")
    assert util.ObservableMixin._listeners is None


def test_autobahn_uses_a_socket_s_validator_only_inside_a_text_message_and_its_unmasker_inside_a_frame() -> None:
    """The socket is lent a UTF-8 validator when a text message begins and gives it back when the
    message ends (operations.websocket): autobahn resets it as the message begins and uses it only
    for the payload of such a message."""
    from autobahn.websocket.protocol import WebSocketProtocol

    begin = inspect.getsource(WebSocketProtocol.onFrameBegin)
    assert "self.utf8validator.reset()" in begin
    assert begin.index("if not self.inside_message:") < begin.index("self.utf8validator.reset()")
    data = inspect.getsource(WebSocketProtocol.onFrameData)
    assert data.index("if self.utf8validateIncomingCurrentMessage:") < data.index("self.utf8validator.validate(")
    source = _autobahn_source()
    assert set(re.findall(r"self\.utf8validator\.(\w+)", source)) == {"reset", "validate"}
    assert re.findall(r"self\.current_frame_masker = (.+)", source) == [
        "create_xor_masker(",
        "XorMaskerNull()",
    ]  # made only with a frame's header, and read until its end
