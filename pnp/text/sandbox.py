"""The sandbox templates render in, with limits on what one template may ask for.

Jinja's sandbox stops a template reaching code, but not reaching for the machine: ``'a' *
10**9``, a power tower, two nested ``range(100000)`` loops, a string doubled in a loop, or
``dict.update`` on the rules pnp passed in. This environment is Jinja's sandbox, immutable for
every list, dict and set pnp hands a template (as Jinja's ImmutableSandboxedEnvironment; the
lists a template makes itself it may fill, as the shipped ones do), with:

- every operator that can make a value grow without bound intercepted (``*``, ``**``, ``+``,
  ``%`` and the ``~`` join), refused when its result would pass :data:`MAX_SEQUENCE` items or
  :data:`MAX_INT_BITS` bits, before anything is allocated;
- the same check on the widths string methods and filters take (``ljust``, ``format``,
  ``center``, …);
- a count of steps (every loop iteration, call and intercepted operator) against
  :data:`MAX_STEPS`, and of the characters rendered against :data:`MAX_OUTPUT_CHARS`;
- no folding of constant expressions at compile time (Jinja's optimizer would compute
  ``9**9**9**9`` while compiling, before any check).

These give an error on the template's line for every way pnp knows of. Behind them is the
render's budget (:mod:`pnp.text.bounded`): its CPU and wall-clock time checked at every step,
and its memory held by the kernel.
"""

from __future__ import annotations

import re
from collections.abc import (
    Callable,
    Iterable,
    Iterator,
    Mapping,
    MutableMapping,
    MutableSequence,
    MutableSet,
    Sequence,
    Set,
)
from contextvars import ContextVar
from types import SimpleNamespace
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.exceptions import SecurityError
from jinja2.sandbox import SandboxedEnvironment, modifies_known_mutable

from pnp.text.bounded import Clock

MAX_SEQUENCE = 1_000_000  # items (characters) in one string, list or tuple a template makes
MAX_INT_BITS = 10_000  # about 3,000 decimal digits; a game's numbers have fewer than 20
MAX_STEPS = 200_000  # loop iterations, calls and operators of one render (the books take < 5,000)
MAX_OUTPUT_CHARS = 2_000_000  # of one rendered template (a rulebook is about 15,000)
MAX_RANGE = 100_000  # items of one range(), as Jinja's sandbox has it

_COUNTED = "pnp_counted"
_JOINED = "pnp_joined"


class TemplateLimit(SecurityError):
    """A template asked for more than a limit allows; the message says which."""


class StepBudget:
    """The steps and characters one render has used, and the containers it was given (which
    it may read, never change): one per render (a :class:`ContextVar` holds the current one,
    so renders in two threads count apart)."""

    def __init__(self, given: Any = None, clock: Clock | None = None, max_steps: int = MAX_STEPS,
                 max_chars: int = MAX_OUTPUT_CHARS) -> None:
        self.max_steps = max_steps
        self.max_chars = max_chars
        self.steps = 0
        self.chars = 0
        self.given = _containers_in(given)
        self.clock = clock

    def step(self) -> None:
        self.steps += 1
        if self.clock is not None:
            self.clock.check()
        if self.steps > self.max_steps:
            raise TemplateLimit(f"the template takes more than {self.max_steps:,} steps (loop "
                                "iterations, calls and operations)")

    def emit(self, text: str) -> None:
        self.chars += len(text)
        if self.chars > self.max_chars:
            raise TemplateLimit(f"the template writes more than {self.max_chars:,} characters")


def _containers_in(values: Any) -> frozenset[int]:
    """The ids of every list, dict and set reachable from ``values`` (through mappings,
    sequences and plain namespaces): what pnp handed the template. Their ids stay theirs for
    the render, since the context keeps them alive."""
    seen: set[int] = set()
    mutable: set[int] = set()
    todo = [values]
    while todo:
        value = todo.pop()
        if id(value) in seen or isinstance(value, (str, bytes, int, float)) or value is None:
            continue
        seen.add(id(value))
        if isinstance(value, (MutableMapping, MutableSequence, MutableSet)):
            mutable.add(id(value))
        if isinstance(value, Mapping):
            todo.extend(value.values())
        elif isinstance(value, (Sequence, Set)):
            todo.extend(value)
        elif isinstance(value, SimpleNamespace):
            todo.extend(vars(value).values())
    return frozenset(mutable)


def _is_given(value: Any) -> bool:
    budget = _BUDGET.get()
    return budget is not None and id(value) in budget.given


_BUDGET: ContextVar[StepBudget | None] = ContextVar("pnp_template_budget", default=None)


def counting(budget: StepBudget) -> Callable[[], None]:
    """Make ``budget`` the one this context's renders count against; returns the undo."""
    token = _BUDGET.set(budget)
    return lambda: _BUDGET.reset(token)


def _step() -> None:
    budget = _BUDGET.get()
    if budget is not None:
        budget.step()


def _counted(values: Any) -> Iterator[Any]:
    """A for loop's iterable, each iteration a step."""
    for value in values:
        _step()
        yield value


def _size(value: Any) -> int | None:
    return len(value) if isinstance(value, (str, list, tuple)) else None


def _refuse_size(items: int) -> None:
    if items > MAX_SEQUENCE:
        raise TemplateLimit(f"a value of {items:,} items: more than the {MAX_SEQUENCE:,} a "
                            "template may make")


def _refuse_bits(bits: int) -> None:
    if bits > MAX_INT_BITS:
        raise TemplateLimit(f"a number too large ({bits:,} bits; at most {MAX_INT_BITS:,})")


def _printable(value: Any) -> Any:
    """``value``, refused when its text would be too long: a list holding itself twice, forty
    levels deep, is 80 objects whose ``str`` is 2⁴⁰ items, made inside one C call. The items
    are counted as ``str`` would write them, shared ones each time, up to the limit."""
    if not isinstance(value, (list, tuple, dict, set, frozenset)):
        return value
    count = 0
    todo = [value]
    while todo:
        item = todo.pop()
        count += 1
        if count > MAX_SEQUENCE:
            _refuse_size(count)
        if isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            todo.extend(item)
        elif isinstance(item, str):
            count += len(item)
    return value


def _joined(parts: tuple[Any, ...]) -> str:
    """``a ~ b``: the join, refused before it is made when too long."""
    texts = [str(_printable(part)) for part in parts]
    _step()
    _refuse_size(sum(len(text) for text in texts))
    return "".join(texts)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_power(left: Any, right: Any) -> None:
    if _is_int(left) and _is_int(right) and right > 0 and abs(left) > 1:
        # Refused from the exponent alone first, so a huge one costs nothing to judge.
        _refuse_bits(right if right > MAX_INT_BITS else abs(left).bit_length() * right)


def _check_product(left: Any, right: Any) -> None:
    if _is_int(left) and _is_int(right):
        _refuse_bits(abs(left).bit_length() + abs(right).bit_length())
    for seq, times in ((left, right), (right, left)):
        if _size(seq) is not None and _is_int(times):
            _refuse_size(_size(seq) * max(times, 0))


def _check_sum(left: Any, right: Any) -> None:
    if _size(left) is not None and _size(right) is not None:
        _refuse_size(_size(left) + _size(right))  # type: ignore[operator]


# A width or precision in a format string: "%1000000000d", "{:>1000000000}".
_FORMAT_NUMBER = re.compile(r"\d{7,}")


def _check_format(text: Any) -> None:
    if isinstance(text, str) and _FORMAT_NUMBER.search(text):
        raise TemplateLimit("a format width or precision of 1,000,000 or more")


def _check_mod(left: Any, right: Any) -> None:
    if isinstance(left, str):  # "%*d" % (width, value): the width may come as an argument
        _check_format(left)
        arguments = right if isinstance(right, tuple) else (right,)
        _check_widths(arguments)
        for argument in arguments:
            _printable(argument)


def _check_widths(values: Iterable[Any]) -> None:
    """An integer argument that sets a size (a width, a count) is at most MAX_SEQUENCE."""
    for value in values:
        if _is_int(value) and abs(value) > MAX_SEQUENCE:
            _refuse_size(abs(value))


_CHECKS: dict[str, Callable[[Any, Any], None]] = {
    "**": _check_power, "*": _check_product, "+": _check_sum, "%": _check_mod,
}


def _bounded_range(*args: int) -> range:
    values = range(*args)
    try:
        count = len(values)
    except OverflowError:  # more than sys.maxsize
        count = MAX_RANGE + 1
    if count > MAX_RANGE:
        raise TemplateLimit(f"range() of more than {MAX_RANGE:,} numbers")
    return values


def _width_checked(function: Callable[..., Any]) -> Callable[..., Any]:
    """A filter whose integer arguments are widths or counts (``center(80)``)."""
    passes_environment = getattr(function, "jinja_pass_arg", None) is not None
    first_option = 2 if passes_environment else 1  # after the environment and the value

    def checked(*args: Any, **kwargs: Any) -> Any:
        _step()
        _check_widths((*args[first_option:], *kwargs.values()))
        return function(*args, **kwargs)
    return jinja2.pass_environment(checked) if passes_environment else checked


def _joined_filter(function: Callable[..., Any]) -> Callable[..., Any]:
    """The ``join`` filter, refused before joining when the separators alone pass the limit."""
    def join(eval_ctx: Any, value: Any, d: str = "", attribute: Any = None) -> Any:
        _step()
        if _size(value) is not None and isinstance(d, str):
            _refuse_size(len(d) * len(value))
        return function(eval_ctx, value, d, attribute)
    return jinja2.pass_eval_context(join)


def _printed_filter(function: Callable[..., Any]) -> Callable[..., Any]:
    passes_context = getattr(function, "jinja_pass_arg", None)
    if passes_context is not None:  # tojson takes the eval context first
        def printed_with(first: Any, value: Any, *args: Any, **kwargs: Any) -> Any:
            _step()
            return function(first, _printable(value), *args, **kwargs)
        printed_with.jinja_pass_arg = passes_context  # type: ignore[attr-defined]
        return printed_with

    def printed(value: Any, *args: Any, **kwargs: Any) -> Any:
        _step()
        return function(_printable(value), *args, **kwargs)
    return printed


def _format_filter(function: Callable[..., Any]) -> Callable[..., Any]:
    def format_(value: Any, *args: Any, **kwargs: Any) -> Any:
        _step()
        _check_format(value)
        _check_widths((*args, *kwargs.values()))
        for argument in (*args, *kwargs.values()):
            _printable(argument)
        return function(value, *args, **kwargs)
    return format_


_STRING_METHODS_WITH_WIDTHS = frozenset({
    "ljust", "rjust", "center", "zfill", "expandtabs", "format", "format_map", "join", "replace",
})


class BoundedSandbox(SandboxedEnvironment):
    """Jinja's sandbox with the limits of this module (see its docstring)."""

    intercepted_binops = frozenset(_CHECKS)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # finalize: every {{ value }} passes _printable before it becomes text.
        super().__init__(*args, optimized=False, finalize=_printable, **kwargs)
        self.globals["range"] = _bounded_range
        del self.globals["lipsum"]  # n paragraphs of filler, unbounded, and no book's business
        for name in ("center", "indent", "truncate", "wordwrap", "batch", "slice"):
            self.filters[name] = _width_checked(self.filters[name])
        self.filters["join"] = _joined_filter(self.filters["join"])
        for name in ("string", "pprint", "tojson", "list"):  # a value's whole text or items
            self.filters[name] = _printed_filter(self.filters[name])
        self.filters["format"] = _format_filter(self.filters["format"])
        self.filters[_COUNTED] = _counted
        self.filters[_JOINED] = _joined

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        # Immutable for what pnp handed in (Jinja's ImmutableSandboxedEnvironment, applied to
        # the given values): a template's own lists and dicts (``{% set seen = [] %}``) it
        # may fill, as the shipped templates do.
        if not super().is_safe_attribute(obj, attr, value):
            return False
        return not (modifies_known_mutable(obj, attr) and _is_given(obj))

    def call_binop(self, context: jinja2.runtime.Context, operator: str, left: Any, right: Any) -> Any:
        _step()
        _CHECKS[operator](left, right)
        return super().call_binop(context, operator, left, right)

    def call(__self, __context: jinja2.runtime.Context, __obj: Any,  # noqa: N805 - Jinja's own signature
             *args: Any, **kwargs: Any) -> Any:
        _step()
        target = getattr(__obj, "__wrapped__", __obj)  # str.format as the sandbox wraps it
        owner = getattr(target, "__self__", None)
        if isinstance(owner, str) and getattr(target, "__name__", "") in _STRING_METHODS_WITH_WIDTHS:
            _check_format(owner)
            _check_widths((*args, *kwargs.values()))
            for argument in (*args, *kwargs.values()):
                _printable(argument)
            if target.__name__ == "join" and args and _size(args[0]) is not None:
                _refuse_size(len(owner) * len(args[0]))
        return super().call(__context, __obj, *args, **kwargs)

    def _generate(self, source: nodes.Template, name: str | None, filename: str | None,
                  defer_init: bool = False) -> str:
        # Every loop counts its iterations and every ``~`` checks its length: the tree is
        # rewritten before code is generated, so no template can opt out.
        for loop in list(source.find_all(nodes.For)):
            loop.iter = nodes.Filter(loop.iter, _COUNTED, [], [], None, None, lineno=loop.iter.lineno)
        for parent in [source, *source.find_all(nodes.Node)]:
            for field in parent.fields:
                value = getattr(parent, field, None)
                if isinstance(value, nodes.Concat):
                    setattr(parent, field, _join_node(value))
                elif isinstance(value, list):
                    value[:] = [_join_node(v) if isinstance(v, nodes.Concat) else v for v in value]
        return super()._generate(source, name, filename, defer_init)


def _join_node(concat: nodes.Concat) -> nodes.Filter:
    return nodes.Filter(nodes.Tuple(concat.nodes, "load", lineno=concat.lineno), _JOINED, [], [], None, None,
                        lineno=concat.lineno)
