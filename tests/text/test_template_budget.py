"""Templates bounded (pnp.text.sandbox, pnp.text.bounded): each limit refuses on the template's
line before anything large is made, the values pnp passes cannot be changed, and the child
process's hard limits stop what no check foresaw, from outside."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pnp.core.errors import DataError
from pnp.text.bounded import Budget, OutOfTime, OverBudget, run_bounded
from pnp.text.sandbox import MAX_SEQUENCE, BoundedSandbox, StepBudget, TemplateLimit, counting
from pnp.text.templating import render_template

ROOT = Path(__file__).resolve().parents[2]


def render(source: str, **context: object) -> str:
    env = BoundedSandbox()
    stop = counting(StepBudget(context))
    try:
        return env.from_string(source).render(**context)
    finally:
        stop()


@pytest.mark.parametrize(("source", "says"), [
    ("{{ 'a' * 10**9 }}", "1,000,000,000 items"),
    ("{{ [1, 2] * 600000 }}", "1,200,000 items"),
    ("{{ 9**9**9**9**9 }}", "too large"),
    ("{{ 2 ** 100000 }}", "too large"),
    ("{% set ns = namespace(x=99) %}{% for i in range(20) %}{% set ns.x = ns.x * ns.x %}{% endfor %}", "too large"),
    ("{% set ns = namespace(s='ab') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}", "items"),
    ("{% set ns = namespace(s='ab') %}{% for i in range(40) %}{% set ns.s = ns.s + ns.s %}{% endfor %}", "items"),
    ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", "steps"),
    ("{% macro f(n) %}{{ f(n) }}{{ f(n) }}{% endmacro %}{{ f(1) }}", "recursion"),
    ("{{ range(10**6) }}", "range()"),
    ("{{ 'a'.ljust(1000000000) }}", "items"),
    ("{{ '{:>1000000000}'.format(1) }}", "format width"),
    ("{{ '%1000000000d' % 1 }}", "format width"),
    ("{{ '%*d' % (1000000000, 1) }}", "items"),
    ("{{ 'a'|center(1000000000) }}", "items"),
    ("{{ 'a'|indent(width=1000000000) }}", "items"),
    ("{{ 'x'|wordwrap(1000000000) }}", "items"),
    ("{{ range(1000)|list|join('x' * 100000) }}", "items"),
    ("{{ ('x' * 1000)|join('y' * 10000) }}", "items"),
])
def test_a_limit_refuses_before_making_the_value(source: str, says: str) -> None:
    start = time.process_time()
    with pytest.raises((TemplateLimit, RecursionError)) as caught:
        render(source)
    assert says in str(caught.value) or (says == "recursion" and caught.type is RecursionError)
    assert time.process_time() - start < 5


def test_what_a_book_does_is_within_the_limits() -> None:
    assert render("{{ 'x' * 10 }}{{ 2 ** 64 }}{{ [1] * 3 }}{% for i in range(3) %}{{ i ~ '.' }}{% endfor %}") == \
        "xxxxxxxxxx18446744073709551616[1, 1, 1]0.1.2."
    assert render("{{ '%5d' % 42 }}|{{ 'ab'|center(6) }}|{{ '{:>4}'.format(7) }}") == "   42|  ab  |   7"
    assert len(render("{{ 'a' * " + str(MAX_SEQUENCE) + " }}")) == MAX_SEQUENCE


def test_the_values_pnp_passes_cannot_change_but_the_templates_own_can() -> None:
    rules = {"actions_per_turn": {"min": 1, "max": 2}}
    rows = [{"card": "a"}]
    for source in ("{{ rules.actions_per_turn.update(max=9) }}", "{{ rows.append(1) }}", "{{ rows[0].pop('card') }}",
                   "{{ rules.clear() }}"):
        with pytest.raises(TemplateLimit.__mro__[1]):  # Jinja's SecurityError
            render(source, rules=rules, rows=rows)
    assert rules == {"actions_per_turn": {"min": 1, "max": 2}} and rows == [{"card": "a"}]
    assert render("{% set seen = [] %}{% for r in rows %}{% set _ = seen.append(r.card) %}{% endfor %}{{ seen }}"
                  "{% set d = {} %}{% set _ = d.update({'k': 1}) %}{{ d }}", rows=rows) == "['a']{'k': 1}"


def test_nothing_is_computed_while_compiling() -> None:
    # Jinja's optimizer would call a filter with constant arguments at compile time, before any
    # render-time check: compiling must cost nothing, the render refuses.
    env = BoundedSandbox()
    start = time.process_time()
    template = env.from_string("{{ 'a'|center(1000000000) }}{{ 9**9**9**9**9**9**9**9 }}")
    assert time.process_time() - start < 1
    with pytest.raises(TemplateLimit):
        stop = counting(StepBudget())
        try:
            template.render()
        finally:
            stop()


def test_output_is_bounded() -> None:
    env = BoundedSandbox()
    stop = counting(StepBudget(max_chars=1000))
    try:
        with pytest.raises(TemplateLimit, match="1,000 characters"):
            for chunk in env.from_string("{% for i in range(2000) %}x{% endfor %}").generate():
                from pnp.text.sandbox import _BUDGET
                budget = _BUDGET.get()
                assert budget is not None
                budget.emit(chunk)
    finally:
        stop()


# The child process: the guarantee behind the checks.

def test_the_child_returns_the_value_and_raises_the_error_with_its_records() -> None:
    assert run_bounded(lambda: "答" * 50_000) == "答" * 50_000

    def fails() -> str:
        raise DataError("templates/x/rulebook.md.j2:3: nope")

    with pytest.raises(DataError) as caught:
        run_bounded(fails)
    assert caught.value.problems == ["templates/x/rulebook.md.j2:3: nope"]


def test_what_the_child_changes_stays_in_the_child() -> None:
    rules = {"max": 2}
    run_bounded(lambda: rules.update(max=9))
    assert rules == {"max": 2}


def test_memory_past_the_budget_is_a_memory_error() -> None:
    with pytest.raises(MemoryError):
        run_bounded(lambda: len(bytearray(1 << 30)), Budget(memory_bytes=64 << 20))


def test_cpu_past_the_budget_stops_python_code_on_its_line() -> None:
    def spin() -> None:
        while True:
            pass

    start = time.monotonic()
    with pytest.raises(OutOfTime):
        run_bounded(spin, Budget(cpu_seconds=1, wall_seconds=120))
    assert time.monotonic() - start < 110


def test_cpu_past_the_budget_inside_c_code_is_killed() -> None:
    # sum() over a range runs in C and never returns to Python to take the signal: the hard
    # limit, a second later, kills the child.
    start = time.monotonic()
    with pytest.raises(OverBudget, match="CPU time"):
        run_bounded(lambda: sum(range(10**13)), Budget(cpu_seconds=1, wall_seconds=120))
    assert time.monotonic() - start < 110


def test_a_child_past_the_wall_clock_is_killed() -> None:
    start = time.monotonic()
    with pytest.raises(OverBudget, match="1 s"):
        run_bounded(lambda: time.sleep(60), Budget(wall_seconds=1))
    assert time.monotonic() - start < 10


def test_a_bounded_call_inside_the_child_runs_in_place() -> None:
    assert run_bounded(lambda: run_bounded(os.getpid)) != os.getpid()


def test_render_template_names_the_line_of_a_child_that_ran_out(tmp_path: Path) -> None:
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "t.md.j2").write_text(
        "# title\n{% set big = range(99999)|list * 10 %}\n"
        "{% for i in range(1000) %}{{ (big|sort)|length }}{% endfor %}\n",
        encoding="utf-8")
    with pytest.raises(DataError) as caught:
        render_template(tmp_path, "g/t.md.j2", {}, budget=Budget(cpu_seconds=1, wall_seconds=120))
    assert "t.md.j2:3:" in str(caught.value) and "CPU time" in str(caught.value)


def test_an_include_name_of_100000_characters_is_an_error_not_a_crash(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    for folder in ("card_data", "templates"):
        subprocess.run(["cp", "-r", str(ROOT / folder), str(ws / folder)], check=True)
    rulebook = ws / "templates" / "tisigui" / "rulebook.md.j2"
    with rulebook.open("a", encoding="utf-8") as handle:
        handle.write("\n{% include '" + "a" * 100_000 + "' %}\n")
    line = rulebook.read_text(encoding="utf-8").count("\n")
    run = subprocess.run([sys.executable, "-m", "pnp", "--root", str(ws), "build", "tisigui", "--lang", "zh-Hant"],
                         capture_output=True, text=True, timeout=120, env={**os.environ, "PNP_CACHE_DIR": ""})
    assert run.returncode == 1, run.stderr[-2000:]
    assert "Traceback" not in run.stdout + run.stderr
    assert f"rulebook.md.j2:{line}: template not found" in run.stdout + run.stderr
    assert "(100,000 characters" in run.stdout + run.stderr
    assert not (ws / "output").exists()
