"""The rulebook's Markdown as one HTML page (`cardgame rules --format html`)."""

from __future__ import annotations

import html
import re


def to_html(markdown: str, title: str) -> str:
    """The rulebook's Markdown (headings, paragraphs, nested lists, tables) as one HTML page."""
    body, stack = [], []
    in_table = False

    def inline(text: str) -> str:
        text = html.escape(text, quote=False)
        text = re.sub(r"`([^`]*)`", r"<code>\1</code>", text)
        text = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", text)
        return re.sub(r"\*([^*]+)\*", r"<em>\1</em>", text)

    def close_lists(depth: int):
        while len(stack) > depth:
            stack.pop()
            body.append("</li></ul>")

    for line in markdown.splitlines():
        item = re.match(r"^( *)- (.*)$", line)
        if item:
            depth = len(item.group(1)) // 2 + 1
            if len(stack) >= depth:
                close_lists(depth)
                body.append("</li><li>" + inline(item.group(2)))
            else:
                while len(stack) < depth:
                    stack.append(1)
                    body.append("<ul><li>")
                body[-1] += inline(item.group(2))
            continue
        close_lists(0)
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if set("".join(cells)) <= {"-"}:
                continue
            tag = "th" if not in_table else "td"
            if not in_table:
                body.append("<table>")
                in_table = True
            body.append("<tr>" + "".join(f"<{tag}>{inline(c)}</{tag}>" for c in cells) + "</tr>")
            continue
        if in_table:
            body.append("</table>")
            in_table = False
        heading = re.match(r"^(#+) (.*)$", line)
        if heading:
            level = len(heading.group(1))
            body.append(f"<h{level}>{inline(heading.group(2))}</h{level}>")
        elif line.strip():
            body.append(f"<p>{inline(line)}</p>")
    close_lists(0)
    if in_table:
        body.append("</table>")
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title></head>\n"
            "<body>\n" + "\n".join(body) + "\n</body></html>\n")
