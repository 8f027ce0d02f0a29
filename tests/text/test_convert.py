"""One-source conversion through the glossary, and the script-purity check."""

from __future__ import annotations

from pnp.data.model import GlossaryTerm
from pnp.data.scripts import foreign_characters
from pnp.text.convert import make_converter


def test_glossary_terms_win_over_opencc_phrases():
    plain = make_converter("zh-Hans", "zh-Hant")
    assert plain("每局限用两个标记") == "每侷限用兩個標記"  # the trap the glossary exists for
    guarded = make_converter("zh-Hans", "zh-Hant", [GlossaryTerm("局限", "局限", "test")])
    assert guarded("每局限用两个标记") == "每局限用兩個標記"


def test_longest_glossary_term_wins():
    terms = [GlossaryTerm("问题", "問題", "a"), GlossaryTerm("问题标记", "提問標記", "b")]
    convert = make_converter("zh-Hans", "zh-Hant", terms)
    assert convert("打出问题标记问问题") == "打出提問標記問問題"


def test_reverse_direction_uses_the_traditional_side_of_the_glossary():
    convert = make_converter("zh-Hant", "zh-Hans", [GlossaryTerm("邱比特", "邱比特", "x")])
    assert convert("邱比特的頭髮很乾淨") == "邱比特的头发很干净"


def test_quotes_follow_each_regions_habit():
    assert make_converter("zh-Hans", "zh-Hant")("他说“好”") == "他說「好」"
    assert make_converter("zh-Hant", "zh-Hans")("他說「好」") == "他说“好”"


def test_variant_config_keeps_taiwan_forms_without_phrase_rewrites():
    to_hans = make_converter("zh-Hant", "zh-Hans")
    to_hant = make_converter("zh-Hans", "zh-Hant")
    assert to_hans("遮蔽板") == "遮蔽板"  # tw2sp would say 屏蔽板
    assert to_hant("面包") == "麵包"
    assert to_hant("里面") == "裡面"


def test_purity_flags_only_characters_of_the_other_script():
    assert foreign_characters("這是后里干台只面", "zh-Hant") == []
    assert foreign_characters("这是後", "zh-Hant") == ["这"]
    assert foreign_characters("这里后面", "zh-Hans") == []
    assert foreign_characters("這裡後", "zh-Hans") == ["這", "裡", "後"]


def test_the_tools_own_words_exist_in_both_scripts_and_are_pure():
    from pnp.text.strings import STRINGS

    assert set(STRINGS["zh-Hant"]) == set(STRINGS["zh-Hans"])
    for lang, words in STRINGS.items():
        assert foreign_characters("".join(words.values()), lang) == [], lang


def test_a_repeated_string_converts_the_same_as_a_fresh_converter():
    terms = [GlossaryTerm("问题标记", "提問標記", "b")]
    convert = make_converter("zh-Hans", "zh-Hant", terms)
    texts = ["打出问题标记问问题", "他说“好”", "打出问题标记问问题", "每局限用两个标记"]
    once = [make_converter("zh-Hans", "zh-Hant", terms)(text) for text in texts]
    assert [convert(text) for text in texts] == once
    assert [convert(text) for text in texts] == once  # the second time from memory


def test_foreign_characters_are_hanzidentifiers_from_the_disk_cache_too(tmp_path, monkeypatch) -> None:
    """The script sets kept in the disk cache say what hanzidentifier.identify says of every
    character from U+2E80 up, whether they were just classified or read back."""
    import hanzidentifier

    from pnp.data import scripts

    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    every = [chr(c) for c in range(0x2E80, 0x110000) if not 0xD800 <= c < 0xE000]
    wanted = {"zh-Hant": hanzidentifier.SIMPLIFIED, "zh-Hans": hanzidentifier.TRADITIONAL}
    expected = {lang: {ch for ch in every if hanzidentifier.identify(ch) == kind} for lang, kind in wanted.items()}
    for _ in range(2):  # classified and stored, then read back from the cache
        scripts._other_script_only.cache_clear()
        try:
            for lang in wanted:
                assert set(scripts.foreign_characters("".join(every), lang)) == expected[lang]
                assert scripts.foreign_characters("abc ○ 台后", lang) == []
        finally:
            scripts._other_script_only.cache_clear()
    assert any((tmp_path / "cache" / scripts.SCRIPT_AREA).iterdir())
