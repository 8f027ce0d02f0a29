"""Sheet templates: a page and the slots cards go in, as a die-cutter's or a print service's
sheet is laid out, read from ``sheets/NAME.yaml`` (or one shipped with pnp) for ``pnp build
--sheet NAME``.

```yaml
paper: a4                  # a paper name or WxH in mm, as --paper takes
bleed: 3                   # mm of each card's bleed printed round its slot (0 to 3)
slots:                     # trim boxes, mm from the page's top-left, filled in this order
  - {at: [10.5, 16.5], size: [63, 88]}
  - {id: wide, at: [10, 200], size: [88, 63], rotate: 90}   # a card turned a quarter
backs:                     # optional: where each slot's back goes (else mirrored left-right)
  - {slot: 1, at: [136.5, 16.5]}
  - {slot: wide, at: [112, 200]}
```

A template is data: plain YAML (pnp.data.yamlmarks), every number within limits, at most
MAX_SLOTS slots. Slots that overlap, run off the page, or (when ``backs`` is given) a slot
without its back, a back naming no slot or two backs for one slot, are problems placed on
their file and line, all reported at once.
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path
from typing import Any

from pnp.core import files
from pnp.core.choices import MAX_PAPER_MM, canonical_paper, paper_names, paper_size
from pnp.core.errors import DataError
from pnp.core.problems import PathKey, Place, Problem
from pnp.core.records import record
from pnp.data.yamlmarks import Located, load_yaml

MAX_SLOTS = 200  # more than 200 cards of the smallest size on the largest paper pnp takes
MIN_SLOT_MM = 10.0  # a slot smaller than this holds no card a die could cut
MAX_BLEED_MM = 3.0  # the bleed every face is drawn with
EPS = 1e-6
KEYS = ("paper", "bleed", "slots", "backs")
SLOT_KEYS = ("id", "at", "size", "rotate")
BACK_KEYS = ("slot", "at")


@record
class TemplateSlot:
    """One slot's trim box on the page (mm, top-left origin, as it lies on the sheet), and
    whether the card in it is turned a quarter (its top towards the page's left edge)."""

    id: str
    x: float
    y: float
    width: float
    height: float
    rotated: bool
    where: Place

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def bottom(self) -> float:
        return self.y + self.height

    def overlaps(self, other: TemplateSlot) -> bool:
        return (self.x < other.right - EPS and other.x < self.right - EPS
                and self.y < other.bottom - EPS and other.y < self.bottom - EPS)

    @property
    def card_size(self) -> tuple[float, float]:
        """The trim of the card it takes, as the card is drawn (before any turn)."""
        return (self.height, self.width) if self.rotated else (self.width, self.height)


@record
class SheetTemplate:
    """A sheet template as read: its page, the bleed printed round each slot, the slots in
    filling order and, when the file declares them, each slot's back (``backs[i]`` is the back
    of ``slots[i]``; None: mirrored left-right, as the imposer does)."""

    name: str
    file: str  # as messages show it
    paper: str  # canonical (pnp.core.choices.canonical_paper)
    width: float
    height: float
    bleed: float
    slots: tuple[TemplateSlot, ...]
    backs: tuple[TemplateSlot, ...] | None
    digest: str  # of the file's bytes: the build record's option, so an edit rebuilds
    where: Place  # the slots list

    @property
    def option(self) -> str:
        """How the build record names it."""
        return f"{self.name}@{self.digest[:16]}"


def load_sheet_template(name: str, file: Path) -> SheetTemplate:
    """Read and validate one template; every problem at once, as a DataError."""
    located = load_yaml(file)
    problems: list[Problem] = []
    top = located.value
    if not isinstance(top, dict):
        raise DataError(located.problem((), "a sheet template is a mapping with paper: and slots:"))
    problems += [located.problem((key,), f"unknown key {key!r} (expected {', '.join(KEYS)})")
                 for key in top if key not in KEYS]
    paper = _paper(located, top, problems)
    width, height = paper_size(paper) if paper else (MAX_PAPER_MM, MAX_PAPER_MM)
    bleed = _number(located, ("bleed",), top.get("bleed", MAX_BLEED_MM), 0.0, MAX_BLEED_MM, problems)
    slots = _slots(located, top.get("slots"), problems)
    backs = _backs(located, top["backs"], slots, problems) if "backs" in top else None
    if paper:
        for group in (slots, backs or ()):
            problems += _off_page(group, width, height)
            problems += _overlaps(group)
    if problems:
        raise DataError(problems)
    assert paper is not None and bleed is not None
    digest = hashlib.sha256(files.read_bytes(file)).hexdigest()
    return SheetTemplate(name, str(located.shown_file), paper, width, height, bleed, tuple(slots),
                         None if backs is None else tuple(backs), digest, located.where(("slots",)))


def _paper(located: Located, top: dict[str, Any], problems: list[Problem]) -> str | None:
    value = top.get("paper")
    found = canonical_paper(value) if isinstance(value, str) else None
    if found is None:
        problems.append(located.problem(("paper",), f"expected {paper_names()}, got {value!r}"))
    return found


def _number(located: Located, path: PathKey, value: Any, low: float, high: float,
            problems: list[Problem]) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
            or not low <= value <= high:
        problems.append(located.problem(path, f"expected a number of mm from {low:g} to {high:g}, got {value!r}"))
        return None
    return float(value)


def _pair(located: Located, path: PathKey, value: Any, low: float, problems: list[Problem]
          ) -> tuple[float, float] | None:
    if not isinstance(value, list) or len(value) != 2:
        problems.append(located.problem(path, f"expected [x, y] in mm, got {value!r}"))
        return None
    first = _number(located, (*path, 0), value[0], low, MAX_PAPER_MM, problems)
    second = _number(located, (*path, 1), value[1], low, MAX_PAPER_MM, problems)
    return None if first is None or second is None else (first, second)


def _entries(located: Located, key: str, value: Any, problems: list[Problem]) -> list[tuple[int, dict[str, Any]]]:
    """The mappings of a slots: or backs: list, by their index, within MAX_SLOTS."""
    if not isinstance(value, list) or not value:
        problems.append(located.problem((key,), f"expected a list of {key}, got {value!r}"))
        return []
    if len(value) > MAX_SLOTS:
        problems.append(located.problem((key,), f"{len(value)} {key}: at most {MAX_SLOTS} on a sheet"))
        return []
    entries: list[tuple[int, dict[str, Any]]] = []
    for index, entry in enumerate(value):
        if not isinstance(entry, dict):
            problems.append(located.problem((key, index), f"expected a mapping, got {entry!r}"))
            continue
        entries.append((index, entry))
    return entries


def _slots(located: Located, value: Any, problems: list[Problem]) -> list[TemplateSlot]:
    slots: list[TemplateSlot] = []
    for index, entry in _entries(located, "slots", value, problems):
        path: PathKey = ("slots", index)
        problems += [located.problem((*path, key), f"unknown key {key!r} (expected {', '.join(SLOT_KEYS)})")
                     for key in entry if key not in SLOT_KEYS]
        slot_id = str(entry.get("id", index + 1))
        at = _pair(located, (*path, "at"), entry.get("at"), 0.0, problems)
        size = _pair(located, (*path, "size"), entry.get("size"), MIN_SLOT_MM, problems)
        rotate = entry.get("rotate", 0)
        if rotate not in (0, 90) or isinstance(rotate, bool):
            problems.append(located.problem((*path, "rotate"), f"expected 0 or 90 (a quarter turn), got {rotate!r}"))
        if any(slot.id == slot_id for slot in slots):
            problems.append(located.problem(path, f"a second slot with id {slot_id!r}"))
        elif at is not None and size is not None:
            slots.append(TemplateSlot(slot_id, *at, *size, rotate == 90, located.where(path)))
    return slots


def _backs(located: Located, value: Any, slots: list[TemplateSlot], problems: list[Problem]
           ) -> list[TemplateSlot]:
    found: dict[str, TemplateSlot] = {}
    by_id = {slot.id: slot for slot in slots}
    for index, entry in _entries(located, "backs", value, problems):
        path: PathKey = ("backs", index)
        problems += [located.problem((*path, key), f"unknown key {key!r} (expected {', '.join(BACK_KEYS)})")
                     for key in entry if key not in BACK_KEYS]
        slot_id = str(entry.get("slot"))
        at = _pair(located, (*path, "at"), entry.get("at"), 0.0, problems)
        front = by_id.get(slot_id)
        if front is None:
            problems.append(located.problem((*path, "slot"), f"names no slot: {entry.get('slot')!r} "
                                            f"(slots: {', '.join(by_id) or 'none'})"))
        elif slot_id in found:
            problems.append(located.problem(path, f"a second back for slot {slot_id!r} "
                                            f"(the first: line {found[slot_id].where.line})"))
        elif at is not None:
            found[slot_id] = TemplateSlot(slot_id, *at, front.width, front.height, front.rotated,
                                          located.where(path))
    if any(p.path[:1] == ("backs",) for p in problems):
        return []
    for slot in slots:
        if slot.id not in found:
            problems.append(slot.where.problem(f"slot {slot.id!r} has no back: with backs: given, "
                                               "each slot needs one"))
    return [found[slot.id] for slot in slots if slot.id in found]


def _off_page(slots: list[TemplateSlot] | tuple[TemplateSlot, ...], width: float, height: float) -> list[Problem]:
    return [slot.where.problem(f"slot {slot.id!r} ({slot.x:g}, {slot.y:g}; {slot.width:g} × {slot.height:g} mm) "
                               f"runs off the {width:g} × {height:g} mm page")
            for slot in slots if slot.right > width + EPS or slot.bottom > height + EPS]


def _overlaps(slots: list[TemplateSlot] | tuple[TemplateSlot, ...]) -> list[Problem]:
    problems = []
    for index, slot in enumerate(slots):
        for earlier in slots[:index]:
            if slot.overlaps(earlier):
                problems.append(slot.where.problem(
                    f"slot {slot.id!r} overlaps slot {earlier.id!r} (line {earlier.where.line}): "
                    "trim boxes may touch, not overlap"))
    return problems
