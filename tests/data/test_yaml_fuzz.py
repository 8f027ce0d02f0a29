"""Property-based fuzzing of the game-file YAML loader (pnp/data/yamlmarks.py): whatever bytes
or YAML-looking text a file holds, load_yaml returns a value or raises DataError, never any
other exception, and every problem it reports names the file."""

from __future__ import annotations

from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.core.errors import DataError
from pnp.data.yamlmarks import load_yaml

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])

# Pieces that reach the loader's corners: anchors, aliases (recursive ones included), every
# kind of tag, flow and block collections, odd scalars, indentation, BOMs, Chinese text.
TOKENS = ["a", "b: ", "- ", "  ", "\n", "\t", ":", "? ", "{", "}", "[", "]", ",", "&x ", "*x",
          "&y ", "*y", "!!python/object/apply:os.system ['true'] ", "!!python/name:os.system ",
          "!custom ", "!!str ", "!!int ", "!!float ", "!!binary ", "!!set ", "!!omap ",
          "<<: *x", "---\n", "...\n", "#", "'", '"', "|\n  ", ">-\n  ", ".nan", "-.inf",
          "1e999", "0x1F", "2026-02-30", "2026-11-29", "~", "null", "yes", "替死鬼", "\ufeff",
          "\r\n", "%YAML 1.1\n", "%TAG ! tag:x,2000:\n", "\\", "\x00", "\x85", "1_000", "0o17"]


def _load(path: Path, data: bytes) -> None:
    path.write_bytes(data)
    try:
        load_yaml(path)
    except DataError as exc:
        assert exc.problems and all(isinstance(p, str) and p for p in exc.problems)
        assert all(path.name in p for p in exc.problems), exc.problems


@SETTINGS
@given(data=st.binary(max_size=400))
def test_random_bytes_load_or_raise_data_error(tmp_path: Path, data: bytes) -> None:
    _load(tmp_path / "game.yaml", data)


@SETTINGS
@given(pieces=st.lists(st.sampled_from(TOKENS), max_size=60))
def test_yaml_looking_text_loads_or_raises_data_error(tmp_path: Path, pieces: list[str]) -> None:
    _load(tmp_path / "components.yaml", "".join(pieces).encode("utf-8"))


_plain = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=5),
    max_leaves=40)


@SETTINGS
@given(value=_plain)
def test_dumped_structures_round_trip_or_raise_data_error(tmp_path: Path, value: object) -> None:
    """Plain structures dumped by PyYAML come back equal (NaN aside) or as a DataError.

    PyYAML's dumper does not always write what its own loader reads back: a raw U+0085 (NEL)
    in a key is a line break to any YAML reader ({'\\x85': None} is read as {' ': None}). For
    such a value, the file says what PyYAML's own loader reads from it, and pnp must read that."""
    path = tmp_path / "tables.yaml"
    text = yaml.safe_dump(value, allow_unicode=True)
    path.write_text(text, encoding="utf-8")
    try:
        loaded = load_yaml(path).value
    except DataError:
        return
    if value is None:
        return
    expected = value
    try:
        reread = yaml.safe_load(text)
    except yaml.YAMLError:
        reread = value
    if yaml.safe_dump(reread) != yaml.safe_dump(value) and "nan" not in yaml.safe_dump(value).lower():
        expected = reread  # the dumper's own round trip fails: the file's text is the reference
    if yaml.safe_dump(expected) == yaml.safe_dump(loaded):
        return
    assert "nan" in yaml.safe_dump(value).lower()


def test_deep_nesting_and_recursive_alias_are_data_errors(tmp_path: Path) -> None:
    for text in ("[" * 5000 + "]" * 5000, "&a [*a]", "&a {k: *a}", "a: &a [*a, *a]"):
        path = tmp_path / "game.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            load_yaml(path)
        except DataError as exc:
            assert "game.yaml" in str(exc)
        else:
            raise AssertionError(f"{text[:20]!r} loaded")


def test_too_many_plain_values_are_not_called_an_alias_bomb(tmp_path: Path) -> None:
    """A file over the value limit with no alias in it is told the limit, not asked about a bomb;
    one that repeats a list through aliases still is."""
    import pytest

    from pnp.data.yamlmarks import MAX_VALUES

    plain = tmp_path / "plain.yaml"
    plain.write_text("marks:\n" + "  - {text: '1', reason: r}\n" * (MAX_VALUES // 3 + 1), encoding="utf-8")
    with pytest.raises(DataError) as refused:
        load_yaml(plain)
    assert f"more than {MAX_VALUES:,} values in one file" in str(refused.value)
    assert "alias" not in str(refused.value)
    bomb = tmp_path / "bomb.yaml"
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    levels += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 7)]
    bomb.write_text("\n".join(levels) + "\n", encoding="utf-8")
    with pytest.raises(DataError) as exploded:
        load_yaml(bomb)
    assert "once aliases are expanded (an alias bomb?)" in str(exploded.value)
