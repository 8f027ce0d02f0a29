"""What no text of a game may hold, checked wherever text is read (YAML at load, CSV and
workbook cells by their readers), so that the refusal names the file, line and field.

Refused: the C0 and C1 control characters (tab and newline aside, and a carriage return only
as part of a CSV cell's CRLF), which print as nothing and garble a terminal that shows the text
back (ESC starts a terminal command); DEL; the bidirectional marks, embeddings, overrides and
isolates (U+061C, U+200E/F, U+202A–202E, U+2066–2069), which reorder what a reader sees; the
line and paragraph separators U+2028/2029, which YAML reads as line breaks but the typesetter
does not and no editor shows; a byte-order mark inside text (U+FEFF); lone surrogates, which
cannot be written as UTF-8 at all; and the noncharacters U+FFFE/FFFF.

Kept: the zero-width space, joiner and non-joiner (U+200B–200D), which Chinese and emoji text
uses to allow a break or join glyphs; the soft hyphen; private-use characters (icon fonts).
"""

from __future__ import annotations

import re

CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
                     "\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff]|\r(?!\n)")


def control_message(text: str) -> str | None:
    """Why ``text`` may not be a game's text (its first :data:`CONTROL` character), or None."""
    found = CONTROL.search(text)
    if found is None:
        return None
    return (f"control character U+{ord(found[0][0]):04X} at character {found.start() + 1}; a game's text "
            "holds no control, separator or bidirectional-override characters: remove it")
