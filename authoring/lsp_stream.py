"""The language server's wire: LSP's framed JSON-RPC messages read from a byte stream with every
size bounded, and each malformed message answered with a JSON-RPC error, after which the stream is
read on.  pygls's own reader trusts its peer: `Content-Length: 99999999999` made it allocate until
it died, a header of 200,000 lines took seconds, and a message that is not a JSON-RPC object
printed a traceback; an editor is a peer too, and one bad message must not end its server.

The frames are read in a thread of their own, one message at a time (the server's event loop is
never blocked on the stream); what a message asks is then handed to pygls, only once it is a
well-formed JSON-RPC message whose parameters LSP's types accept.
"""

from __future__ import annotations

import json

import attrs

from cardgame.interpreter.language.limits import MAX_SCRIPT_BYTES

# A script at its size cap sent whole as JSON, each character escaped (`\u00e9`: 6 bytes), with
# room to spare: an editor's largest message is a document's text.
MAX_MESSAGE_BYTES = 8 * MAX_SCRIPT_BYTES
MAX_HEADER_LINE = 1_024  # bytes of one header line (LSP sends two short ones)
MAX_HEADER_LINES = 32  # lines of one message's header
_SKIP_CHUNK = 65_536  # what is read at once of a message refused for its size, and then dropped

# JSON-RPC 2.0's error codes
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602


@attrs.frozen
class Refused:
    """A message the server cannot take, and the error to answer it with.

    Attributes:
        id: the request's, when it could be read; None otherwise, as JSON-RPC says.
        skip: bytes of its body still to be read and dropped (`skip`), once it is answered, so
            the next message is found where the peer sent it.
    """

    code: int
    message: str
    id: object = None
    skip: int = 0


def read_frame(stream):
    """The body of the next message (bytes), a Refused for a frame that breaks LSP's framing or
    a limit, or None at the end of the stream."""
    length, problem, lines = None, None, 0
    while True:
        line = stream.readline(MAX_HEADER_LINE + 1)
        if not line:
            return None
        if len(line) > MAX_HEADER_LINE:  # the rest of a line too long to be a header: dropped
            problem = problem or f"a header line longer than {MAX_HEADER_LINE:,} bytes"
            while line and not line.endswith(b"\n"):
                line = stream.readline(_SKIP_CHUNK)
            if not line:
                return None
            lines += 1
            continue
        if line in (b"\r\n", b"\n"):
            if lines == 0:  # a blank line between messages
                continue
            break
        lines += 1
        if lines > MAX_HEADER_LINES:  # read on, and its length still found: the body is then dropped
            problem = problem or f"a header of more than {MAX_HEADER_LINES} lines"
        name, colon, value = line.partition(b":")
        if not colon:
            problem = problem or "a header line that is not `Name: value`"
        elif name.strip().lower().endswith(b"content-length"):  # after a stray body's bytes too: the next message
            text = value.strip()
            if not text.isdigit() or len(text) > 15:
                problem = problem or f"`Content-Length: {_shown(text)}` is not a length"
            else:
                length = int(text)
    if length is None:
        return Refused(PARSE_ERROR, problem or "a message without a `Content-Length` header")
    if length > MAX_MESSAGE_BYTES:
        problem = problem or f"a message of {length:,} bytes; the limit is {MAX_MESSAGE_BYTES:,}"
    if problem is not None:
        return Refused(INVALID_REQUEST, problem, skip=length)
    body = stream.read(length)
    return body if len(body) == length else None


def skip(stream, length: int) -> bool:
    """Read and drop `length` bytes, a chunk at a time; False if the stream ends first."""
    while length > 0:
        chunk = stream.read(min(length, _SKIP_CHUNK))
        if not chunk:
            return False
        length -= len(chunk)
    return True


def _shown(value: bytes) -> str:
    return value[:40].decode("ascii", "replace")


def parse_message(body: bytes):
    """The message as a dict, once it is a JSON-RPC 2.0 request, notification or response; a
    Refused otherwise."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as err:  # not JSON, not UTF-8, nested past the decoder, a 5,000-digit number
        return Refused(PARSE_ERROR, f"not JSON: {_first_line(err)}")
    if not isinstance(data, dict):
        return Refused(INVALID_REQUEST, "a message is a JSON object")
    ident = data.get("id")
    if "id" in data and not _valid_id(ident):
        return Refused(INVALID_REQUEST, "a message's `id` is a number or a text")
    if data.get("jsonrpc") != "2.0":
        return Refused(INVALID_REQUEST, 'a message says `"jsonrpc": "2.0"`', ident)
    if "method" in data:
        if not isinstance(data["method"], str):
            return Refused(INVALID_REQUEST, "a message's `method` is a text", ident)
        if "params" in data and not isinstance(data["params"], (dict, list, type(None))):
            return Refused(INVALID_PARAMS, "a message's `params` are an object or an array", ident)
    elif "id" not in data or not ("result" in data or "error" in data):
        return Refused(INVALID_REQUEST, "neither a request, a notification nor a response", ident)
    return data


def _valid_id(ident) -> bool:
    return type(ident) is str or type(ident) is int and -2 ** 53 < ident < 2 ** 53 or ident is None


def _first_line(err: BaseException) -> str:
    text = str(err).split("\n", 1)[0]
    return text[:200]


def error_response(refused: Refused) -> bytes:
    """The framed JSON-RPC error answering `refused`."""
    body = json.dumps({"jsonrpc": "2.0", "id": refused.id,
                       "error": {"code": refused.code, "message": refused.message}}).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body
