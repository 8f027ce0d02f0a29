"""Page flow of a printed table: its introduction and caption travel with it, a table that
fits on a page moves on whole rather than split, and only one longer than a page carries on
over the next under a repeated header."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from reportlab.platypus import Flowable, Spacer, Table

MIN_ROWS = 3  # body rows a split leaves on each side of a page break


class IntroTable(Flowable):  # type: ignore[misc]  # reportlab is untyped
    """The flowables that introduce a table (its sentence, its caption) and the table, as one
    block: drawn together when it fits; moved on whole when it fits on a page (``page``, the
    height of a whole page's frame); else, longer than a page, split after at least MIN_ROWS
    rows, with at least MIN_ROWS rows going over under the repeated header."""

    def __init__(self, head: Sequence[Flowable], table: Table, page: float) -> None:
        super().__init__()
        self.head = list(head)
        self.table = table
        self.page = page
        self._placed: list[tuple[Flowable, float]] = []

    def _flow(self) -> list[Flowable]:
        return [*self.head, self.table]

    def getSpaceBefore(self) -> float:  # noqa: N802 - reportlab's name
        return float(self.head[0].getSpaceBefore() if self.head else self.table.getSpaceBefore())

    def getSpaceAfter(self) -> float:  # noqa: N802 - reportlab's name
        return float(self.table.getSpaceAfter())

    def _stack(self, flowables: list[Flowable], width: float) -> float:
        """Wraps each and notes where it goes; the total height, spaces between included."""
        self._placed = []
        y = 0.0
        for index, flowable in enumerate(flowables):
            if index:
                y += max(flowables[index - 1].getSpaceAfter(), flowable.getSpaceBefore())
            _, height = flowable.wrapOn(self.canv, width, 0xFFFFFF)
            self._placed.append((flowable, y + height))
            y += height
        return y

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.width = avail_width
        self.height = self._stack(self._flow(), avail_width)
        return avail_width, self.height

    def draw(self) -> None:
        for flowable, bottom in self._placed:
            flowable.drawOn(self.canv, 0, self.height - bottom)

    def split(self, avail_width: float, avail_height: float) -> list[Flowable]:
        if self.wrap(avail_width, avail_height)[1] <= self.page:
            return []  # it fits on a page: the next one takes it whole
        head_h = self._stack(self.head, avail_width) if self.head else 0.0
        if self.head:
            head_h += max(self.head[-1].getSpaceAfter(), self.table.getSpaceBefore())
        parts = self.table.split(avail_width, avail_height - head_h)
        if len(parts) != 2:
            return []
        header = self.table.repeatRows if isinstance(self.table.repeatRows, int) else 0
        first, rest = (len(part._cellvalues) - header for part in parts)  # noqa: SLF001 - rows
        if rest < MIN_ROWS <= first + rest - MIN_ROWS:
            # One or two rows would go over alone: send MIN_ROWS over instead.
            keep = header + first + rest - MIN_ROWS
            heights = self.table._rowHeights  # noqa: SLF001 - set by the split's wrap
            parts = self.table.split(avail_width, sum(heights[:keep]) + 0.01)
            if len(parts) != 2:
                return []
            first, rest = (len(part._cellvalues) - header for part in parts)  # noqa: SLF001
        if first < MIN_ROWS or rest < MIN_ROWS:
            return []
        # The rest keeps the same rule, wherever it breaks again (and it must not fill the
        # room a rebalanced split left at this page's foot).
        return [*self.head, parts[0], IntroTable([], parts[1], self.page)]


def take_introduction(out: list[Flowable],
                      stays: Callable[[Flowable], bool] | None = None) -> list[Flowable]:
    """Removes from ``out`` the text just before a table (and the space after it) and returns
    it, to travel in the table's block; what ``stays`` (a heading, which keeps with what
    follows it anyway; another table or figure) is left where it is."""
    taken: list[Flowable] = []
    while out and isinstance(out[-1], Spacer):
        taken.insert(0, out.pop())
    if out and not (stays is not None and stays(out[-1])):
        taken.insert(0, out.pop())
    else:
        out.extend(taken)
        taken = []
    for flowable in taken:
        flowable.keepWithNext = False
    return taken
