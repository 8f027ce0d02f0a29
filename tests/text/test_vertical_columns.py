"""Vertical columns (pnp.text.vertical): kinsoku, 縱中橫 and turned runs, shrink to fit."""

from __future__ import annotations

from pnp.text.vertical import fit_columns, set_columns


def em(text: str, bold: bool = False) -> float:
    """Half an em for Latin and digits, an em for the rest (a stand-in face's widths)."""
    return sum(0.5 if ch.isascii() else 1.0 for ch in text)


def column_texts(columns: tuple) -> list[str]:  # type: ignore[type-arg]
    return ["".join(cell.text for cell in column) for column in columns]


def test_no_column_starts_with_closing_punctuation() -> None:
    # Four cells a column: 。 would start the second column; 四 goes with it.
    assert column_texts(set_columns("一二三四。五六", 4, em, 5)) == ["一二三", "四。五六"]
    assert column_texts(set_columns("一二三「四五」", 4, em, 5)) == ["一二三", "「四五」"]


def test_short_latin_sits_across_one_cell_and_longer_runs_turn() -> None:
    (column,) = set_columns("第12回ABCD", 10, em, 1)
    assert [(c.text, c.kind, c.length) for c in column] == [
        ("第", "upright", 1.0), ("12", "across", 1.0), ("回", "upright", 1.0), ("ABCD", "turned", 2.0)]


def test_a_newline_starts_a_column_and_too_many_columns_do_not_fit() -> None:
    assert column_texts(set_columns("一二\n三", 10, em, 2)) == ["一二", "三"]
    assert set_columns("一二\n三", 10, em, 1) is None


def test_shrinks_until_the_columns_fit_and_gives_up_below_the_minimum() -> None:
    # 6 characters in a box 13 pt wide and 40 pt tall: at 10 pt one column of 4 cells, too few;
    # at 6.5 pt two columns of 6 cells (pitch 8.45 pt) fit.
    fit = fit_columns("一二三四五六", 13, 40, 10, 4, em)
    assert fit is not None and fit.size == 6.5 and column_texts(fit.columns) == ["一二三四五六"]
    assert fit_columns("一二三四五六", 13, 40, 10, 8, em) is None
