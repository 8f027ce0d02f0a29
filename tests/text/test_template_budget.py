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
from pnp.text.bounded import Budget, Clock, OutOfTime, within_memory
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


# The budget behind the checks: time at every step, memory held by the kernel.

def test_memory_past_the_budget_is_a_memory_error_and_the_limit_is_put_back() -> None:
    import resource

    before = resource.getrlimit(resource.RLIMIT_AS)
    with pytest.raises(MemoryError):
        within_memory(Budget(memory_bytes=64 << 20), lambda: len(bytearray(1 << 30)))
    assert resource.getrlimit(resource.RLIMIT_AS) == before
    assert within_memory(Budget(memory_bytes=64 << 20), lambda: len(bytearray(1 << 20))) == 1 << 20


def test_the_clock_stops_at_either_deadline() -> None:
    with pytest.raises(OutOfTime, match="of CPU time"):
        clock = Clock(Budget(cpu_seconds=0.05))
        while True:
            clock.check()
    with pytest.raises(OutOfTime, match="more than 0.05 s$"):
        clock = Clock(Budget(wall_seconds=0.05))
        time.sleep(0.1)
        clock.check()


def write(tmp_path: Path, text: str) -> None:
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "t.md.j2").write_text(text, encoding="utf-8")


def test_many_bounded_steps_run_out_of_time_on_their_line(tmp_path: Path) -> None:
    write(tmp_path, "# title\n{% set big = range(99999)|list * 10 %}\n"
                    "{% for i in range(1000) %}{{ (big|sort)|length }}{% endfor %}\n")
    start = time.monotonic()
    with pytest.raises(DataError) as caught:
        render_template(tmp_path, "g/t.md.j2", {}, budget=Budget(cpu_seconds=1, wall_seconds=60))
    assert "t.md.j2:3: the template takes more than 1 s of CPU time" in str(caught.value)
    assert time.monotonic() - start < 30


def test_memory_past_the_budget_inside_one_c_call_is_an_error_on_its_line(tmp_path: Path) -> None:
    # replace() with an empty pattern: 10**6 places of 500,000 characters each, one C call the
    # sandbox's checks do not size; the kernel's limit makes it a MemoryError there.
    write(tmp_path, "# title\n\n{{ ('ab' * 500000)|replace('', 'x' * 500000) }}\n")
    with pytest.raises(DataError) as caught:
        render_template(tmp_path, "g/t.md.j2", {}, budget=Budget(memory_bytes=64 << 20))
    assert "t.md.j2:3: the template needs more than 64 MiB of memory" in str(caught.value)


@pytest.mark.parametrize("printed", ["{{ ns.l }}", "{{ ns.l|string }}", "{{ 'x' ~ ns.l }}", "{{ '%s' % (ns.l,) }}",
                                     "{{ '{}'.format(ns.l) }}", "{{ ns.l|tojson }}", "{{ ns.l|pprint }}"])
def test_a_value_whose_text_would_explode_is_refused(printed: str) -> None:
    # A list holding itself twice, 40 levels deep: 80 objects whose text is 2**40 items.
    with pytest.raises(TemplateLimit, match="items"):
        render("{% set ns = namespace(l=[1]) %}{% for i in range(40) %}{% set ns.l = [ns.l, ns.l] %}{% endfor %}"
               + printed)


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
