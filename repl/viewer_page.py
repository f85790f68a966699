"""The HTML replay: one self-contained page (its script, styles and card faces inline, no network)
that steps through a game seat by seat, from the data viewer_data.py reads through the engine.

The page's code and styles are files of their own (viewer_assets/), read when a page is
written; the data goes in a `<script type="application/gzip">` (see `packed`), which the page
unpacks with the browser's own DecompressionStream.  The same data gives the same page, byte for
byte.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
from importlib.resources import files

from .viewer_data import viewer_data

ASSETS = files("cardgame.repl") / "viewer_assets"


class PageError(Exception):
    """A page that cannot be written; the message says why."""


def _asset(name: str) -> str:
    return (ASSETS / name).read_text(encoding="utf-8")


def packed(data: dict) -> str:
    """The data as the page holds it: JSON, gzipped (a game's positions repeat a lot: a game of a
    thousand moves and six views, 1.8 MB of JSON, packs into 0.2 MB) and in base64, which no text
    of a game can turn into markup.  The gzip header's time is 0, so the same data packs into the
    same bytes."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(gzip.compress(text, 9, mtime=0)).decode("ascii")


def unpacked(text: str) -> dict:
    """The data of `packed` again (the tests read pages with it)."""
    return json.loads(gzip.decompress(base64.b64decode(text)).decode("utf-8"))


def viewer_fragment(data: dict) -> str:
    """The viewer as a part of a page (the simulate report embeds one): its styles, its data and its code."""
    return (f"<style>\n{_asset('viewer.css')}</style>\n"
            f"<div class=\"cg-viewer\"><noscript>The replay is drawn by JavaScript, which is off.</noscript>"
            f"<script type=\"application/gzip\" class=\"cg-data\">{packed(data)}</script></div>\n"
            f"<script>\n{_asset('viewer.js')}</script>\n")


def page(data: dict) -> str:
    """The whole page for `data` (viewer_data.viewer_data)."""
    who = "" if data["full"] else f" as {data['viewers'][0]} saw it"
    title = html.escape(f"{data['title']}{who}: a replay")
    return ("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{title}</title>\n</head>\n<body>\n{viewer_fragment(data)}</body>\n</html>\n")


def write_page(path: str, record, viewers: list) -> int:
    """Write the page of `record` for `viewers` at `path`; its size in bytes.  PageError when it
    cannot be written, viewer_data.ViewerError when the game cannot be shown."""
    text = page(viewer_data(record, viewers)).encode("utf-8")
    if "\0" in path:
        raise PageError(f"cannot write `{path}`: a path cannot hold the character NUL")
    try:
        with open(path, "wb") as fh:
            fh.write(text)
    except OSError as err:
        raise PageError(f"cannot write `{path}`: {err.strerror or err}") from None
    return len(text)
