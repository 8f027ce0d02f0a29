"""A sample game's narration (Markdown a game's template wrote) as HTML the preview can show
without trusting it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_it.token import Token


def markdown_html(text: str) -> str:
    """A narration as HTML; raw HTML in it is shown as text, never run, and it names nothing
    outside the preview: a picture with a remote address shows its description instead, a
    remote link its text (a template in a shared game folder could otherwise make the page
    call out to an address of its choosing). Table alignment is a class, not a style
    attribute, which the page's Content-Security-Policy would drop."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(text)
    for token in tokens:
        align = str(token.attrs.pop("style", "")).removeprefix("text-align:")
        if align in ("left", "center", "right"):
            token.attrSet("class", f"align-{align}")
        if token.children:
            token.children = _local_only(token.children)
    return str(md.renderer.render(tokens, md.options, {}))


def _local_only(tokens: list[Token]) -> list[Token]:
    from markdown_it.token import Token

    kept: list[Token] = []
    dropped_links: list[bool] = []  # per open link: was its opening dropped
    for token in tokens:
        if token.type == "image" and not _is_local(str(token.attrs.get("src", ""))):
            kept.append(Token("text", "", 0, content=token.content))
        elif token.type == "link_open":
            dropped_links.append(not _is_local(str(token.attrs.get("href", ""))))
            if not dropped_links[-1]:
                kept.append(token)
        elif token.type == "link_close":
            if not (dropped_links and dropped_links.pop()):
                kept.append(token)
        else:
            kept.append(token)
    return kept


def _is_local(url: str) -> bool:
    """A reference the browser resolves against the preview itself: a path or a fragment; not
    an address with a scheme or a host (``//host``, and ``/\\host``, which browsers read as one)."""
    from urllib.parse import urlsplit

    if not url or "\\" in url or url.startswith("//") or any(ch <= " " or ch == "\x7f" for ch in url):
        return False
    parts = urlsplit(url)
    return not parts.scheme and not parts.netloc
