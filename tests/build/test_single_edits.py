"""The single-edit corpus (tests/single_edits/<slug>.yaml): every edit to a number of a game,
applied alone to a copy of the workspace, either makes ``pnp check`` exit 1 naming file and
line (``expect: check``) or changes the built PDF consistently (``expect: pdf``: the new
number is printed where the old one was).

The corpus is data; tests/single_edits/README.md describes a case.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from pnp.cli import cli
from tests.conftest import ROOT
from tests.pdfprobe import text as pdf_text

CORPUS = ROOT / "tests" / "single_edits"


def _cases() -> list[Any]:
    params = []
    for path in sorted(CORPUS.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]:
            params.append(pytest.param(path.stem, case, id=f"{path.stem}: {case['name']}"))
    return params


def _line_ending(text: str, needle: str) -> int:
    at = text.find(needle)
    assert at >= 0, f"{needle!r} not found"
    return text.count("\n", 0, at + len(needle.rstrip("\n"))) + 1


@pytest.mark.parametrize(("slug", "case"), _cases())
def test_a_single_edit_is_caught(workspace_copy: Path, slug: str, case: dict[str, Any]) -> None:
    target = workspace_copy / case["file"]
    text = target.read_text(encoding="utf-8")
    assert case["old"] in text, f"{case['old']!r} not in {case['file']}"
    edited = text.replace(case["old"], case["new"], 1)
    target.write_text(edited, encoding="utf-8")
    if case["expect"] == "pdf":
        _assert_printed(workspace_copy, slug, case)
        return
    assert case["expect"] == "check", f"unknown expectation {case['expect']!r}"

    where_file = case.get("where", case["file"])
    if "line" in case:
        line = int(case["line"])
    elif "line_of" in case:
        line = _line_ending((workspace_copy / where_file).read_text(encoding="utf-8"),
                            case["line_of"])
    else:
        line = _line_ending(edited, case["new"])

    result = CliRunner().invoke(cli, ["--root", str(workspace_copy), "check", slug,
                                      "--format", "json"])
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    found = [(f["code"], f["where"]) for f in report["games"][slug]["findings"]]
    assert any(code == case["code"] and where.startswith(f"{where_file}:{line}")
               and where[len(f"{where_file}:{line}"):][:1] in ("", ":")
               for code, where in found), (f"no {case['code']} at {where_file}:{line}", found)


def _squeezed(value: str) -> str:
    # Line breaks and the spaces around digits fall anywhere in typeset CJK text.
    return "".join(value.split())


def _assert_printed(root: Path, slug: str, case: dict[str, Any]) -> None:
    lang = case.get("lang", "zh-Hant")
    result = CliRunner().invoke(cli, ["--root", str(root), "build", slug, "--lang", lang])
    assert result.exit_code == 0, result.output
    printed = _squeezed(pdf_text(root / "output" / slug / lang / case["pdf"]))
    for wanted in case["appears"]:
        assert _squeezed(wanted) in printed, f"{wanted!r} not printed in {case['pdf']}"
    for stale in case["gone"]:
        assert _squeezed(stale) not in printed, f"{stale!r} still printed in {case['pdf']}"
