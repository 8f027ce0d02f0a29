"""game.yaml read into a GameInfo: the game's name, version, date, players and credits, its
rules mapping, the faces it prints in, and the designer's declarations the checks honour
(acknowledged problems, the example game, literal numbers, script exceptions, the game's own
tool words)."""

from __future__ import annotations

import datetime
import re
from typing import Any

from pnp.core.choices import FONT_ROLES, FONT_SUFFIXES, LANGS
from pnp.core.limits import MAX_CREDITS, MAX_FACT_CHARS, MAX_NAME_CHARS, MAX_PLAYERS, MAX_SEED
from pnp.data.model import (
    Acknowledged,
    AllowedText,
    ExampleGame,
    FontPick,
    GameInfo,
    LiteralMark,
    Text,
    ToolWords,
    frozen_mapping,
)
from pnp.data.plaintext import is_plain_text, located_text, within_text_limit
from pnp.data.schema import IDENT, Reader, describe
from pnp.data.yamlmarks import PathKey


def read_game_info(r: Reader, slug_from_dir: str) -> GameInfo:
    """game.yaml, whose slug must be its folder's name."""
    keys = ("slug", "name", "source_lang", "version", "date", "players", "minutes", "age",
            "credits", "rules", "acknowledged", "example", "script_exceptions", "literal_numbers",
            "tool_words", "fonts")
    top = r.mapping(r.doc.value, (), keys, required=("slug", "name", "source_lang", "version",
                                                     "date", "players"))
    slug = r.string(top, "slug", (), pattern=IDENT, what="a lower-case identifier")
    if slug and slug != slug_from_dir:
        r.fail(("slug",), f"slug {slug!r} must match its folder name {slug_from_dir!r}")
    source_lang = r.string(top, "source_lang", ())
    if source_lang and source_lang not in LANGS:
        r.fail(("source_lang",), f"expected one of {', '.join(LANGS)}, got {source_lang!r}")
    date = _read_date(r, top.get("date", ""))
    players = r.mapping(top.get("players", {}), ("players",), ("min", "max", "common"),
                        required=("min", "max"))
    low = r.integer(players, "min", ("players",), minimum=1, maximum=MAX_PLAYERS)
    high = r.integer(players, "max", ("players",), minimum=1, maximum=MAX_PLAYERS)
    common = r.integer(players, "common", ("players",), default=low, minimum=1, maximum=MAX_PLAYERS)
    if low > high:
        r.fail(("players",), f"min ({low}) is greater than max ({high})")
    elif not low <= common <= high:
        r.fail(("players", "common"), f"must lie between min {low} and max {high}, got {common}")
    credits = _read_credits(r, top.get("credits", []))
    rules = top.get("rules", {})
    if not isinstance(rules, dict):
        r.fail(("rules",), f"expected a mapping, got {describe(rules)}")
        rules = {}
    acknowledged = []
    for i, item in enumerate(r.sequence(top.get("acknowledged", []), ("acknowledged",))):
        path = ("acknowledged", i)
        item = r.mapping(item, path, ("code", "reason"), required=("code", "reason"))
        if item:
            acknowledged.append(Acknowledged(r.string(item, "code", path), r.string(item, "reason", path),
                                             r.where(path)))
    example = None
    literal_numbers = _read_literal_marks(r, top.get("literal_numbers", []))
    if "example" in top:
        spec = r.mapping(top["example"], ("example",), ("seed", "players", "variant"),
                         required=("seed", "players"))
        if spec:
            seed = r.integer(spec, "seed", ("example",), minimum=0, maximum=MAX_SEED)
            count = r.integer(spec, "players", ("example",), minimum=low, maximum=high)
            variant = r.string(spec, "variant", ("example",), default="") or None
            example = ExampleGame(seed, count, variant)
    return GameInfo(
        script_exceptions=frozen_mapping(_read_script_exceptions(r, top.get("script_exceptions", []))),
        example=example,
        acknowledged=tuple(acknowledged),
        literal_numbers=literal_numbers,
        tool_words=_read_tool_words(r, top.get("tool_words", {})),
        fonts=read_font_picks(r, top.get("fonts", {})),
        slug=slug,
        name=located_text(r, top, "name", (), max_chars=MAX_NAME_CHARS),
        source_lang=source_lang,
        version=r.string(top, "version", (), max_chars=MAX_FACT_CHARS),
        date=date,
        players_min=low,
        players_max=high,
        players_common=common,
        minutes=r.string(top, "minutes", (), default="", max_chars=MAX_FACT_CHARS),
        age=r.string(top, "age", (), default="", max_chars=MAX_FACT_CHARS),
        credits=credits,
        rules=frozen_mapping(rules),
        where=r.where(()),
    )


def _read_literal_marks(r: Reader, value: Any) -> tuple[LiteralMark, ...]:
    """game.yaml ``literal_numbers``: digits in printed text that are deliberate, with why."""
    marks = []
    for i, item in enumerate(r.sequence(value, ("literal_numbers",))):
        path = ("literal_numbers", i)
        item = r.mapping(item, path, ("file", "field", "component", "card", "text", "from", "until",
                                      "reason"), required=("reason",))
        if not item:
            continue
        text, start = r.string(item, "text", path, default=""), r.string(item, "from", path, default="")
        until = r.string(item, "until", path, default="")
        field = r.string(item, "field", path, default="")
        component, card = _mark_target(r, item, path)
        if text and start or not (text or start or field or "component" in item or "card" in item):
            r.fail(path, "give `text:` (the digits it covers, in their words), `from:` (a text on "
                         "the first line of the lines it covers), `field:` (a YAML path) or "
                         "`component:` (a component's id, and `card:` a card's)")
        elif until and not start:
            r.fail((*path, "until"), "`until:` ends a `from:` range; this mark has no `from:`")
        elif text and not re.search(r"[0-9０-９]", text):
            r.fail((*path, "text"), f"{text!r} holds no digit, so it marks nothing")
        reason = r.string(item, "reason", path)
        if item and not reason.strip():
            r.fail((*path, "reason"), "say why the number is typed rather than derived from the rules")
        marks.append(LiteralMark(r.string(item, "file", path, default=""), text, start, until,
                                 reason, r.where(path), field, component, card))
    return tuple(marks)


def _mark_target(r: Reader, item: dict[str, Any], path: PathKey) -> tuple[str, str]:
    """A mark's ``component:`` and ``card:`` ids. Whether the game has them is the check's to
    say (components.yaml is read after game.yaml); that they are ids, and that a card is named
    with its component (two components may each have a card of one id), is said here."""
    component = r.string(item, "component", path, default="", pattern=IDENT,
                         what="a component's id (a lower-case identifier)") if "component" in item else ""
    card = r.string(item, "card", path, default="", pattern=IDENT,
                    what="a card's id (a lower-case identifier)") if "card" in item else ""
    if "card" in item and "component" not in item:
        r.fail((*path, "card"), "name the card's component too (`component:` its id): card ids are "
                                "unique only within a component")
    if "component" in item and "file" in item:
        r.fail((*path, "file"), "a mark naming a `component:` covers that component wherever its "
                                "texts are (components.yaml or its spreadsheet); leave out `file:`")
    return component, card


MAX_FAMILY_CHARS = 100


def read_font_picks(r: Reader, value: Any) -> tuple[FontPick, ...]:
    """game.yaml ``fonts:``: a face per text role, ``title: AR PL UKai TW`` (a family name) or
    ``body: {file: MyFace.otf, bold_file: MyFace-Bold.otf}`` (files in the workspace's fonts/).
    Only the form is checked here; whether the face exists is the build's question."""
    spec = r.mapping(value, ("fonts",), FONT_ROLES)
    picks = []
    for role in FONT_ROLES:
        if role not in spec:
            continue
        path: PathKey = ("fonts", role)
        item = spec[role]
        if isinstance(item, str):
            item = {"family": item}
        item = r.mapping(item, path, ("family", "file", "bold_file"))
        if not item:
            continue
        family = r.string(item, "family", path, default="").strip()
        file = r.string(item, "file", path, default="")
        bold_file = r.string(item, "bold_file", path, default="")
        if bool(family) == bool(file):
            r.fail(path, "name the face by `family:` (as fc-list shows it, e.g. 'AR PL UKai TW') "
                         "or by `file:` (a font file in the workspace's fonts/), one of the two")
            continue
        if len(family) > MAX_FAMILY_CHARS:
            r.fail((*path, "family"), f"at most {MAX_FAMILY_CHARS} characters, got {len(family)}")
            continue
        if bold_file and not file:
            r.fail((*path, "bold_file"), "`bold_file:` goes with `file:`; a family's bold is found by its name")
            continue
        bad = [(key, name) for key, name in (("file", file), ("bold_file", bold_file))
               if name and not _plain_font_name(name)]
        for key, name in bad:
            r.fail((*path, key), f"{name!r}: a font file's name in the workspace's fonts/ folder, "
                                 f"ending in {', '.join(FONT_SUFFIXES)} (no folders)")
        if not bad:
            picks.append(FontPick(role, family, file, bold_file, r.where(path)))
    return tuple(picks)


def _plain_font_name(name: str) -> bool:
    """A file name alone (nothing that could leave fonts/), with a font's suffix."""
    return (name not in ("", ".", "..") and "/" not in name and "\\" not in name and "\0" not in name
            and name.lower().endswith(FONT_SUFFIXES) and not name.startswith("."))


def _read_tool_words(r: Reader, value: Any) -> ToolWords:
    """game.yaml ``tool_words``: the game's own words about the tool, and passages allowed one."""
    path: PathKey = ("tool_words",)
    spec = r.mapping(value, path, ("forbid", "allow"))
    forbid = []
    for i, item in enumerate(r.sequence(spec.get("forbid", []), (*path, "forbid"))):
        word = r.string({"item": item}, "item", (*path, "forbid", i))
        if not word.strip():
            r.fail((*path, "forbid", i), "a word to forbid, not an empty text")
        else:
            forbid.append(word)
    allow = []
    for i, item in enumerate(r.sequence(spec.get("allow", []), (*path, "allow"))):
        ipath = (*path, "allow", i)
        item = r.mapping(item, ipath, ("text", "reason"), required=("text", "reason"))
        if not item:
            continue
        text, reason = r.string(item, "text", ipath), r.string(item, "reason", ipath)
        if "text" in item and not text.strip():
            r.fail((*ipath, "text"), "the passage that may print a tool word, not an empty text")
        elif "reason" in item and not reason.strip():
            r.fail((*ipath, "reason"), "say why this passage must print a word about the tool")
        else:
            allow.append(AllowedText(text, reason, r.where(ipath)))
    return ToolWords(tuple(forbid), tuple(allow))


_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _read_date(r: Reader, value: Any) -> str:
    """An ISO date: YAML's own date, or text holding a real calendar date."""
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, str) and _DATE.fullmatch(value):
        try:
            return datetime.date.fromisoformat(value).isoformat()
        except ValueError as exc:
            r.fail(("date",), f"{value!r} is not a calendar date ({exc})")
            return ""
    r.fail(("date",), f"expected a date such as '2026-11-29', got {describe(value)}")
    return ""


def _read_credits(r: Reader, value: Any) -> tuple[Text, ...]:
    """Credit lines: each one text, so that a nested list is not printed as its repr."""
    items = r.sequence(value, ("credits",))
    if len(items) > MAX_CREDITS:
        r.fail(("credits",), f"at most {MAX_CREDITS} entries (the limit for credits), got {len(items)}")
        return ()
    credits = []
    for i, item in enumerate(items):
        text = r.string({"item": item}, "item", ("credits", i)) if is_plain_text(item) else None
        if text is None:
            r.fail(("credits", i), f"expected one line of text, got {describe(item)}")
        elif within_text_limit(r, text, ("credits", i)):
            credits.append(Text(text, r.where(("credits", i))))
    return tuple(credits)


def _read_script_exceptions(r: Reader, value: Any) -> dict[str, str]:
    """Characters of the other script a source text holds on purpose, each with a reason."""
    out: dict[str, str] = {}
    for i, item in enumerate(r.sequence(value, ("script_exceptions",))):
        path = ("script_exceptions", i)
        item = r.mapping(item, path, ("chars", "reason"), required=("chars", "reason"))
        chars = r.string(item, "chars", path) if item else ""
        reason = r.string(item, "reason", path) if item else ""
        if item and not reason.strip():
            r.fail((*path, "reason"), "say why the characters belong in the source text")
        for ch in chars:
            out[ch] = reason
    return out
