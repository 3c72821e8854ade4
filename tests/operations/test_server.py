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
