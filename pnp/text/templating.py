"""The one Jinja2 environment and the one renderer for a game's templates (Markdown out):
rulebook, player aid, narration (``pnp sample``, the sample PDF, the preview) all render
through :func:`render_template`.

Templates come with a game folder, and game folders are shared and downloaded: they render in
Jinja's sandbox, immutable for the values pnp hands them, with limits on what a template may
ask for (:mod:`pnp.text.sandbox`) and a budget of CPU time, wall-clock time and memory
(:mod:`pnp.text.bounded`), and the loader reaches only the workspace's templates folder, so a
template can neither run code, read a file outside it, change the values it is given nor
exhaust the machine. Undefined names are errors, so a template can never print an empty hole
where a number or a name should be; nothing is HTML-escaped, since the output is Markdown.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import field, replace
from functools import cache
from pathlib import Path
from types import TracebackType
from typing import Any, cast

import jinja2
import jinja2.bccache
from jinja2.exceptions import SecurityError

from pnp.core.errors import DataError
from pnp.core.problems import Place, Problem, problem_at
from pnp.core.records import record
from pnp.data.textfile import read_text, shown
from pnp.text.bounded import DEFAULT_BUDGET, Budget, Clock, OutOfTime, within_memory
from pnp.text.sandbox import BoundedSandbox, StepBudget, TemplateLimit, counting

# The longest template name looked up: a file name is at most 255 bytes on every file system
# pnp runs on, and a longer name is not a file (it would fail with ENAMETOOLONG).
MAX_NAME_CHARS = 255


def money(value: int) -> str:
    """20000 -> "$20,000"; a negative amount gets a real minus sign."""
    return f"−${-value:,}" if value < 0 else f"${value:,}"


class WorkspaceLoader(jinja2.BaseLoader):
    """Loads ``<slug>/<name>`` from one templates folder and nothing outside it: no ``..``,
    no absolute names, no link that leads elsewhere; files are read as pnp reads all text."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder.resolve()

    def get_source(self, environment: jinja2.Environment, template: str
                   ) -> tuple[str, str, Callable[[], bool]]:
        if len(template) > MAX_NAME_CHARS:
            raise jinja2.TemplateNotFound(f"{template[:40]}… ({len(template):,} characters: a "
                                          f"template's name has at most {MAX_NAME_CHARS})")
        parts = [part for part in template.replace("\\", "/").split("/") if part not in ("", ".")]
        if not parts or ".." in parts or template.startswith(("/", "\\")):
            raise jinja2.TemplateNotFound(f"{template} (templates may only name files inside templates/)")
        path = self.folder.joinpath(*parts)
        try:
            resolved = path.resolve()
            inside = resolved.is_relative_to(self.folder)
            found = inside and resolved.is_file()
            mtime = resolved.stat().st_mtime if found else 0.0
        except (OSError, RuntimeError):
            raise jinja2.TemplateNotFound(template) from None
        if not inside:
            raise jinja2.TemplateNotFound(f"{template} (leads outside templates/)")
        if not found:
            raise jinja2.TemplateNotFound(template)
        return read_text(resolved), str(path), lambda: resolved.is_file() and resolved.stat().st_mtime == mtime


class SignedBytecodeCache(jinja2.BytecodeCache):
    """Compiled templates kept across processes in pnp's cache folder (:mod:`pnp.core.diskcache`):
    compiling the four rulebooks and their narrations costs about 0.6 s of every cold build.

    Jinja names a bucket by the template's name and file and checks the source's checksum and
    its own format and Python's version inside; the entry name adds Jinja's version and the
    bounded sandbox's, whose compiled code differs from an ordinary environment's (loops
    counted, ``~`` checked, nothing folded). The code objects are
    only unmarshalled from an entry pnp signed (the HMAC is checked first), never from a file
    someone else put there."""

    AREA = "templates"
    _MAX_ENTRY = 16 * 1024 * 1024

    def _name(self, bucket: jinja2.bccache.Bucket) -> str:
        return f"{bucket.key}-{bucket.checksum}-{jinja2.__version__}-bounded2.jbc"

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        from pnp.core import diskcache

        payload = diskcache.read(self.AREA, self._name(bucket), self._MAX_ENTRY)
        if payload is not None:
            try:
                bucket.bytecode_from_string(payload)
            except (ValueError, EOFError, TypeError):
                bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        from pnp.core import diskcache

        diskcache.write(self.AREA, self._name(bucket), bucket.bytecode_to_string())


@cache
def markdown_environment(templates: Path) -> jinja2.Environment:
    """One environment per templates folder: compiling a template costs far more than
    rendering it, and the loader still notices an edited template by its mtime."""
    env = BoundedSandbox(
        loader=WorkspaceLoader(templates),
        bytecode_cache=SignedBytecodeCache(),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["money"] = money
    env.filters["thousands"] = lambda value: f"{value:,}"
    return env


@record
class _Frame:
    """Where in the templates a render failed: the innermost template frame's file and line,
    its local values, and whether that file's top-level code is on the stack more than once
    (it includes itself, directly or through another)."""

    file: str | None = None
    line: int | None = None
    values: Mapping[str, Any] = field(default_factory=dict)
    reentered: bool = False


# Jinja's rewritten tracebacks name a template's top-level code so; the compiled code, "root".
_TOP_LEVEL = ("top-level template code", "root")


def _template_frame(tb: TracebackType | None, folder: str) -> _Frame:
    """The template line a render error happened on (in the rulebook, or in the aid it
    includes), and the template's local values there: Jinja rewrites tracebacks so that frames
    of compiled template code carry the template's file name and line."""
    found = _Frame()
    entries: dict[str, int] = {}
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename.startswith(folder):
            found = _Frame(code.co_filename, tb.tb_lineno, dict(tb.tb_frame.f_locals))
            if code.co_name in _TOP_LEVEL:
                entries[code.co_filename] = entries.get(code.co_filename, 0) + 1
        tb = tb.tb_next
    return replace(found, reentered=found.file is not None and entries.get(found.file, 0) > 1)


# Compiled templates keep a template variable ``x`` as the Python local ``l_<depth>_x``.
_LOCAL = re.compile(r"^l_\d+_(.+)$")


@record
class _Behind:
    """What a template line computes from: the variables it reads, then those each was
    ``set`` (or looped) from, and so on back, nearest first; and per variable the fields the
    template takes of it (``row.x`` or ``row["x"]``) on the way."""

    names: tuple[str, ...]
    fields: Mapping[str, tuple[str, ...]]


def _names_behind(source: str, env: jinja2.Environment, line: int) -> _Behind:
    try:
        tree = env.parse(source)
    except jinja2.TemplateSyntaxError:
        return _Behind((), {})

    def names(node: jinja2.nodes.Node) -> list[str]:
        found = [node] if isinstance(node, jinja2.nodes.Name) else []
        return [n.name for n in (*found, *node.find_all(jinja2.nodes.Name))]

    sources: dict[str, list[jinja2.nodes.Node]] = {}
    for assign in tree.find_all(jinja2.nodes.Assign):
        for target in names(assign.target):
            sources.setdefault(target, []).append(assign.node)
    for loop in tree.find_all(jinja2.nodes.For):
        for target in names(loop.target):
            sources.setdefault(target, []).append(loop.iter)
    on_line = [node for node in tree.find_all(jinja2.nodes.Expr) if node.lineno == line]
    walked: list[str] = []
    fields: dict[str, list[str]] = {}
    todo: list[jinja2.nodes.Node] = list(on_line)
    while todo:  # breadth first: the variables nearest the failing line come first
        node = todo.pop(0)
        for item in (node, *node.find_all((jinja2.nodes.Getattr, jinja2.nodes.Getitem))):
            if isinstance(item, jinja2.nodes.Getattr) and isinstance(item.node, jinja2.nodes.Name):
                fields.setdefault(item.node.name, []).append(item.attr)
            elif (isinstance(item, jinja2.nodes.Getitem) and isinstance(item.node, jinja2.nodes.Name)
                  and isinstance(item.arg, jinja2.nodes.Const) and isinstance(item.arg.value, str)):
                fields.setdefault(item.node.name, []).append(item.arg.value)
        for name in names(node):
            if name not in walked:
                walked.append(name)
                todo.extend(sources.get(name, ()))
    return _Behind(tuple(walked), {name: tuple(dict.fromkeys(f)) for name, f in fields.items()})


def _data_origin(line: int, values: Mapping[str, Any], source: str, env: jinja2.Environment,
                 origin: Callable[[Any], str | None]) -> tuple[str, str | None] | None:
    """Where the data a failing template line computed from was written (a printed table's
    row in tables.yaml, say, and its field), if one of the values behind the line is such
    data; with the value the template read, when it read one field."""
    by_name: dict[str, Any] = {}
    for local, value in values.items():
        # Jinja's rewritten frames name them as the template does; a raw frame, l_<depth>_x.
        match = _LOCAL.match(local)
        by_name[match.group(1) if match else local] = value
    behind = _names_behind(source, env, line)
    for name in behind.names:
        if name not in by_name:
            continue
        value = by_name[name]
        where = origin(value)
        if not where:
            continue
        read = [f for f in behind.fields.get(name, ()) if isinstance(value, Mapping) and f in value]
        if len(read) == 1:
            field = where.child(read[0]) if isinstance(where, Place) else f"{where}.{read[0]}"
            return field, repr(value[read[0]])
        return where, None
    return None


def _source_line(source: str, line: int) -> str:
    lines = source.splitlines()
    text = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    return text if len(text) <= 100 else text[:99] + "…"


def located_by_identity(values: Iterable[tuple[Any, str]]) -> Callable[[Any], str | None]:
    """An ``origin`` for :func:`render_template` that knows the objects handed to the template
    (each with the place its data was written) by identity."""
    places = {id(value): (value, where) for value, where in values}

    def origin(value: Any) -> str | None:
        found = places.get(id(value))
        return found[1] if found is not None and found[0] is value else None

    return origin


def render_template(templates: Path, name: str, context: Mapping[str, Any],
                    origin: Callable[[Any], str | None] | None = None, budget: Budget = DEFAULT_BUDGET) -> str:
    """Render ``name`` (``<slug>/<file>``) in the bounded sandbox within ``budget``; every
    failure is a DataError that names the template file and line.

    A value the template computes that fails (a division by zero, a number that is not one)
    is the data's mistake more often than the template's: ``origin`` tells where a value the
    template was given was written, and the error then names that place first."""
    path = templates / name
    env = markdown_environment(templates)
    try:
        template = env.get_template(name)
    except jinja2.TemplateSyntaxError as exc:
        file = shown(Path(exc.filename)) if exc.filename else shown(path)
        raise DataError(Problem(f"template syntax error: {exc.message}", str(file), exc.lineno)) from None
    except jinja2.TemplateNotFound as exc:
        raise DataError(Problem(f"template not found: {exc.message or exc.name}", str(shown(path)))) from None
    try:
        return within_memory(budget, lambda: _render_counted(env, template, path, context, origin, budget))
    except MemoryError:  # so near the limit that even the error's text could not be made there
        raise DataError(Problem(f"the template needs more than {budget.memory_bytes // 2**20:,} MiB of memory",
                                str(shown(path)))) from None


def _render_counted(env: jinja2.Environment, template: jinja2.Template, path: Path,
                    context: Mapping[str, Any], origin: Callable[[Any], str | None] | None,
                    budget: Budget) -> str:
    """The render itself, its steps and characters counted (:class:`StepBudget`)."""
    steps = StepBudget(context, Clock(budget))
    stop_counting = counting(steps)
    try:
        chunks: list[str] = []
        rendered = cast(Generator[str, None, None], template.generate(**context))
        for chunk in rendered:
            try:
                steps.emit(chunk)
            except TemplateLimit as exc:
                rendered.throw(exc)  # raised where the template is writing: its line is named
            chunks.append(chunk)
        return "".join(chunks)
    except DataError:
        raise
    except Exception as exc:  # noqa: BLE001 - a template is user data: any failure is theirs
        raise _render_error(exc, env, path, origin, budget) from None
    finally:
        stop_counting()


def _render_error(exc: Exception, env: jinja2.Environment, path: Path,
                  origin: Callable[[Any], str | None] | None, budget: Budget) -> DataError:
    folder = env.loader.folder if isinstance(env.loader, WorkspaceLoader) else path.parent
    frame = _template_frame(exc.__traceback__, str(folder))
    line = frame.line
    failing = Path(frame.file) if frame.file else path  # the aid, when the rulebook's include fails in it
    where = Place(str(shown(failing)), line or None)
    source = _read_source(failing) if line else ""
    data = _data_origin(line, frame.values, source, env, origin) if line and origin else None
    if isinstance(exc, TemplateLimit):
        reason = f"refused: {exc}"
    elif isinstance(exc, SecurityError):
        reason = f"refused: {exc} (templates may only use the values pnp gives them)"
    elif isinstance(exc, jinja2.UndefinedError):
        # A misspelt name more often than missing data: the template line first.
        reason = f"template uses something undefined: {exc.message}"
        if data:
            reason += f" (reading {data[0]}: {data[1]})" if data[1] is not None else f" (reading {data[0]})"
    elif isinstance(exc, jinja2.TemplateNotFound):
        reason = f"template not found: {exc.message or exc.name}"
    elif isinstance(exc, jinja2.TemplateError):
        reason = f"template error: {exc.message}"
    elif isinstance(exc, RecursionError):
        reason = ("the template includes itself (directly or through another) without end" if frame.reentered
                  else "template recursion too deep (a macro that calls itself without end?)")
    elif isinstance(exc, MemoryError):
        reason = f"the template needs more than {budget.memory_bytes // 2**20:,} MiB of memory"
    elif isinstance(exc, OutOfTime):
        reason = f"the template takes {exc}: it was stopped there"
    else:
        failed = f"{type(exc).__name__}: {exc}" + (f" in `{_source_line(source, line)}`" if line else "")
        if data:  # arithmetic on a value the data gave: the data's place first
            read = f"{data[1]}: " if data[1] is not None else ""
            return DataError(problem_at(data[0], f"{read}{where} computes from it and fails: {failed}"))
        reason = f"template failed: {failed}"
    return DataError(where.problem(reason))


def _read_source(path: Path) -> str:
    try:
        return read_text(path)
    except (OSError, DataError):
        return ""
