"""Hostile messages to the language server: every size is bounded (a header line, a header, a
message's body), each malformed message is answered with a JSON-RPC error, nothing is printed on
standard error, and the server answers the next message.  The framing is tested on bytes in
memory; a few whole exchanges run `cardgame lsp` as a subprocess, as an editor does."""

from __future__ import annotations

import io
import json
import re
import resource
import subprocess
import sys

import pytest

from cardgame.authoring import lsp_stream as wire
from helpers import ROOT


def _frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _message(obj) -> bytes:
    return _frame(json.dumps(obj).encode())


class _Counting(io.BytesIO):
    """A stream that counts the bytes asked of it at once, at most."""

    def __init__(self, data: bytes):
        super().__init__(data)
        self.most = 0

    def readline(self, size=-1):
        self.most = max(self.most, size)
        return super().readline(size)

    def read(self, size=-1):
        self.most = max(self.most, size)
        return super().read(size)


FRAMES = {  # what comes in -> (code of the error, what it says)
    "a length that is not a number": (b"Content-Length: abc\r\n\r\n", -32700, "is not a length"),
    "a negative length": (b"Content-Length: -5\r\n\r\n", -32700, "is not a length"),
    "no length": (b"Content-Type: x\r\n\r\n", -32700, "without a `Content-Length`"),
    "a header line without a colon": (b"Content-Length: 2\r\nnonsense\r\n\r\n{}", -32600, "not `Name: value`"),
    "200,000 header lines": (b"X-Junk: 1\r\n" * 200_000 + b"Content-Length: 2\r\n\r\n{}", -32600, "more than 32 lines"),
    "a header line of 5 MB": (b"X: " + b"a" * 5_000_000 + b"\r\nContent-Length: 2\r\n\r\n{}", -32600,
                              "longer than 1,024 bytes"),
    "a body over the limit": (b"Content-Length: %d\r\n\r\n" % (wire.MAX_MESSAGE_BYTES + 1) +
                              b" " * (wire.MAX_MESSAGE_BYTES + 1), -32600, "the limit is"),
}


@pytest.mark.parametrize("name", sorted(FRAMES))
def test_a_broken_frame_is_refused_and_the_next_message_read_where_it_starts(name):
    data, code, said = FRAMES[name]
    after = _message({"jsonrpc": "2.0", "id": 7, "method": "shutdown"})
    stream = _Counting(data + after)
    refused = wire.read_frame(stream)
    assert isinstance(refused, wire.Refused) and refused.code == code and said in refused.message
    assert wire.skip(stream, refused.skip)
    assert json.loads(wire.read_frame(stream))["id"] == 7
    assert stream.most <= max(wire.MAX_HEADER_LINE + 1, 65_536)  # never more at once, whatever is announced


def test_a_length_of_a_hundred_gigabytes_is_refused_before_anything_is_read():
    stream = _Counting(b"Content-Length: 99999999999\r\n\r\n{}")
    refused = wire.read_frame(stream)
    assert refused.skip == 99_999_999_999 and "99,999,999,999 bytes" in refused.message
    assert not wire.skip(stream, refused.skip)  # the stream ends first: the server stops reading
    assert stream.most <= 65_536


MESSAGES = {  # a body -> (code, id answered)
    "not JSON": (b"{not json", -32700, None),
    "not UTF-8": (b'{"jsonrpc": "2.0", "id": 5, "method": "\xff\xfe"}', -32700, None),
    "JSON nested 100,000 deep": (b"[" * 100_000 + b"]" * 100_000, -32700, None),
    "a 5,000-digit number": (b'{"jsonrpc": "2.0", "id": ' + b"9" * 5000 + b"}", -32700, None),
    "an array": (b"[1, 2, 3]", -32600, None),
    "a number": (b"42", -32600, None),
    "null": (b"null", -32600, None),
    "no jsonrpc": (b'{"id": 5, "method": "shutdown"}', -32600, 5),
    "a method that is a number": (b'{"jsonrpc": "2.0", "id": 5, "method": 7}', -32600, 5),
    "an id that is an object": (b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "shutdown"}', -32600, None),
    "params that are a number": (b'{"jsonrpc": "2.0", "id": 5, "method": "shutdown", "params": 3}', -32602, 5),
    "neither request nor response": (b'{"jsonrpc": "2.0", "id": 5}', -32600, 5),
}


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_a_message_that_is_not_json_rpc_is_refused(name):
    body, code, ident = MESSAGES[name]
    refused = wire.parse_message(body)
    assert isinstance(refused, wire.Refused) and (refused.code, refused.id) == (code, ident), refused
    answer = wire.error_response(refused)
    head, _, rest = answer.partition(b"\r\n\r\n")
    assert head == b"Content-Length: %d" % len(rest) and json.loads(rest)["error"]["code"] == code


# ---- the server itself

INIT = _message({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
PING = _message({"jsonrpc": "2.0", "id": 99, "method": "shutdown"})


def _exchange(payload: bytes, memory: int | None = None):
    """(answers, stderr) of `cardgame lsp` given `payload` after `initialize` and then asked to
    shut down (id 99), its address space capped at `memory` bytes."""
    limit = (lambda: resource.setrlimit(resource.RLIMIT_AS, (memory, memory))) if memory else None
    done = subprocess.run([sys.executable, "-m", "cardgame.repl", "lsp"], input=INIT + payload + PING,
                          capture_output=True, timeout=120, cwd=str(ROOT), preexec_fn=limit)
    bodies = re.split(rb"Content-Length: \d+\r\n(?:Content-Type: [^\r]*\r\n)?\r\n", done.stdout)[1:]
    return [json.loads(b) for b in bodies], done.stderr.decode(errors="replace"), done.returncode


def test_malformed_messages_are_answered_and_the_server_goes_on():
    """Twelve kinds of malformed message each printed a pygls traceback on standard error."""
    bad = [b for b, _code, _ident in MESSAGES.values()] + [
        json.dumps({"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover", "params": {"textDocument": 3}}).encode(),
        json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": 5}}}).encode(),
        json.dumps({"jsonrpc": "2.0", "id": 6, "method": "no/such/method", "params": {}}).encode(),
        json.dumps({"jsonrpc": "2.0", "id": 12345, "result": {}}).encode()]
    answers, err, code = _exchange(b"".join(_frame(b) for b in bad) + FRAMES["a length that is not a number"][0])
    assert err == "" and code == 0
    errors = [a["error"]["code"] for a in answers if "error" in a]
    assert errors.count(-32700) == 5 and errors.count(-32600) == 7 and errors.count(-32602) == 2
    assert -32601 in errors  # an unknown method, as pygls answers it
    assert any(a.get("id") == 99 and "result" in a for a in answers)  # and it still serves


def test_a_hundred_gigabyte_message_is_answered_without_reading_it():
    """`Content-Length: 99999999999` ended the server with a MemoryError traceback."""
    answers, err, code = _exchange(b"Content-Length: 99999999999\r\n\r\n{}", memory=2 * 1024 ** 3)
    assert err == "" and code == 0
    assert [a["error"]["code"] for a in answers if "error" in a] == [-32600]


def test_a_header_of_200000_lines_is_refused_and_the_server_goes_on():
    answers, err, code = _exchange(FRAMES["200,000 header lines"][0])
    assert err == "" and code == 0
    assert [a["error"]["code"] for a in answers if "error" in a] == [-32600]
    assert any(a.get("id") == 99 for a in answers)
