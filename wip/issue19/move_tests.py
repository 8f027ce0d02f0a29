"""Mirror the package in tests/: tests/<package>/test_*.py (run at repo root after move.py)."""
import pathlib
import re
import subprocess

TESTS = {
 "text": ["test_break_agreement", "test_fit_cache", "test_font_cache", "test_fonts", "test_i18n", "test_justification",
          "test_paragraph_lines", "test_punctuation_compression", "test_textlayout", "test_typography",
          "test_template_cache", "test_typesetting_limits", "test_glossary_aizhewudi", "test_glossary_niutouwang",
          "test_glossary_tisigui", "test_glossary_wurenshenghuan", "glossary_support"],
 "build": ["test_build_all", "test_build_tisigui", "test_incremental", "test_single_edits", "test_library_versions"],
 "layout": ["test_build_sheets", "test_layout", "test_tiling", "test_rulers", "test_ink_saver"],
 "render": ["test_card_faces"],
 "check": ["test_check", "test_check_literals", "test_counts", "test_tables_update", "test_conversion_check", "test_check_index"],
 "cli": ["test_cli", "test_interrupt", "test_designer_loop"],
 "data": ["test_data_validation", "test_rulerefs", "test_label_ranges", "test_yaml_fuzz", "test_vocabulary"],
 "export": ["test_export", "test_print_shop_colour"],
 "play": ["test_narrate", "test_simulate", "test_split_examples"],
 "rulebook": ["test_outline_levels", "test_rulebook_pages", "test_table_figure", "test_own_words", "test_rulebook_flow",
              "test_examples_niutouwang", "test_examples_wurenshenghuan", "test_examples_tisigui", "test_examples_aizhewudi", "bookexamples", "test_table_needs"],
 "serve": ["test_serve", "test_serve_browser", "test_build_watch"],
 "games": ["test_calc", "test_plugin_game"],
}
DIRS = {"engines": "games", "golden": None, "fixtures": None, "hostile": None, "single_edits": None}

def main() -> None:
    moved = {}
    for pkg, names in TESTS.items():
        d = pathlib.Path("tests", pkg)
        d.mkdir(exist_ok=True)
        for n in names:
            src = pathlib.Path("tests", n + ".py")
            if src.exists():
                subprocess.run(["git", "mv", str(src), str(d / src.name)], check=True)
                moved[n] = pkg
    # per-game engine tests: tests/engines/* -> tests/games/*
    for f in sorted(pathlib.Path("tests/engines").iterdir()):
        subprocess.run(["git", "mv", str(f), str(pathlib.Path("tests/games") / f.name)], check=True)
    for pkg in TESTS:
        init = pathlib.Path("tests", pkg, "__init__.py")
        if not init.exists():
            init.write_text("", encoding="utf-8"); subprocess.run(["git", "add", str(init)], check=True)
    for init in [pathlib.Path("tests/__init__.py")]:
        if not init.exists():
            init.write_text("", encoding="utf-8"); subprocess.run(["git", "add", str(init)], check=True)
    files = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True).stdout.split()
    for f in files:
        p = pathlib.Path(f)
        if p.suffix not in {".py", ".md", ".yaml", ".txt", ".toml"} and p.name != "run":
            continue
        text = p.read_text(encoding="utf-8")
        new = text
        for n, pkg in moved.items():
            new = re.sub(rf"(?<![\w/])tests/{n}\.py", f"tests/{pkg}/{n}.py", new)
            new = re.sub(rf"(?<![\w.])tests\.{n}(?![\w])", f"tests.{pkg}.{n}", new)
        new = re.sub(r"(?<![\w/])tests/engines/", "tests/games/", new)
        new = re.sub(r"(?<![\w/])tests/engines(?![\w/])", "tests/games", new)
        new = new.replace('"tests" / "engines"', '"tests" / "games"')
        if p.parts[0] == "tests" and len(p.parts) == 3 and p.suffix == ".py":
            new = new.replace("Path(__file__).resolve().parents[1]", "Path(__file__).resolve().parents[2]")
            if p.parts[1] != "games":
                for sub in ("fixtures", "golden"):
                    new = new.replace(f'Path(__file__).parent / "{sub}"', f'Path(__file__).parents[1] / "{sub}"')
        if new != text:
            p.write_text(new, encoding="utf-8")

if __name__ == "__main__":
    main()
