"""The one Jinja2 environment for rulebook and narration templates (Markdown out).

Templates come with a game folder, and game folders are shared and downloaded: they render in
Jinja's immutable sandbox, and the loader reaches only the workspace's templates folder, so a
template can neither run code nor read a file outside it. Undefined names are errors, so a
template can never print an empty hole where a number or a name should be; nothing is
HTML-escaped, since the output is Markdown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from types import TracebackType
from typing import Any

import jinja2
import jinja2.bccache
from jinja2.sandbox import SandboxedEnvironment, SecurityError

from pnp.data.textfile import read_text, shown
from pnp.errors import DataError


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
        parts = [part for part in template.replace("\\", "/").split("/") if part not in ("", ".")]
        if not parts or ".." in parts or template.startswith(("/", "\\")):
            raise jinja2.TemplateNotFound(f"{template} (templates may only name files inside templates/)")
        path = self.folder.joinpath(*parts)
        try:
            resolved = path.resolve()
        except (OSError, RuntimeError):
            raise jinja2.TemplateNotFound(template) from None
        if not resolved.is_relative_to(self.folder):
            raise jinja2.TemplateNotFound(f"{template} (leads outside templates/)")
        if not resolved.is_file():
            raise jinja2.TemplateNotFound(template)
        mtime = resolved.stat().st_mtime
        return read_text(resolved), str(path), lambda: resolved.is_file() and resolved.stat().st_mtime == mtime


class SignedBytecodeCache(jinja2.BytecodeCache):
    """Compiled templates kept across processes in pnp's cache folder (:mod:`pnp.diskcache`):
    compiling the four rulebooks and their narrations costs about 0.6 s of every cold build.

    Jinja names a bucket by the template's name and file and checks the source's checksum and
    its own format and Python's version inside; the entry name adds Jinja's version and the
    sandbox, whose compiled code differs from an ordinary environment's. The code objects are
    only unmarshalled from an entry pnp signed (the HMAC is checked first), never from a file
    someone else put there."""

    AREA = "templates"
    _MAX_ENTRY = 16 * 1024 * 1024

    def _name(self, bucket: jinja2.bccache.Bucket) -> str:
        return f"{bucket.key}-{bucket.checksum}-{jinja2.__version__}-sandbox.jbc"

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        from pnp import diskcache

        payload = diskcache.read(self.AREA, self._name(bucket), self._MAX_ENTRY)
        if payload is not None:
            try:
                bucket.bytecode_from_string(payload)
            except (ValueError, EOFError, TypeError):
                bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        from pnp import diskcache

        diskcache.write(self.AREA, self._name(bucket), bucket.bytecode_to_string())


@cache
def markdown_environment(templates: Path) -> jinja2.Environment:
    """One environment per templates folder: compiling a template costs far more than
    rendering it, and the loader still notices an edited template by its mtime."""
    env = SandboxedEnvironment(
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


def _template_line(tb: TracebackType | None, filename: str) -> int | None:
    """The template line a render error happened on: Jinja rewrites tracebacks so that frames
    of compiled template code carry the template's file name and line."""
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def render_template(templates: Path, name: str, context: Mapping[str, Any]) -> str:
    """Render ``name`` (``<slug>/<file>``) in the sandbox; every failure is a DataError that
    names the template file and line."""
    path = templates / name
    env = markdown_environment(templates)
    try:
        template = env.get_template(name)
    except jinja2.TemplateSyntaxError as exc:
        where = shown(Path(exc.filename)) if exc.filename else shown(path)
        raise DataError(f"{where}:{exc.lineno}: template syntax error: {exc.message}") from None
    except jinja2.TemplateNotFound as exc:
        raise DataError(f"{shown(path)}: template not found: {exc.message or exc.name}") from None
    try:
        return template.render(**context)
    except DataError:
        raise
    except Exception as exc:  # noqa: BLE001 - a template is user data: any failure is theirs
        line = _template_line(exc.__traceback__, template.filename or str(path))
        where = f"{shown(path)}:{line}" if line else f"{shown(path)}"
        if isinstance(exc, SecurityError):
            reason = f"refused: {exc} (templates may only use the values pnp gives them)"
        elif isinstance(exc, jinja2.UndefinedError):
            reason = f"template uses something undefined: {exc.message}"
        elif isinstance(exc, jinja2.TemplateNotFound):
            reason = f"template not found: {exc.message or exc.name}"
        elif isinstance(exc, jinja2.TemplateError):
            reason = f"template error: {exc.message}"
        elif isinstance(exc, RecursionError):
            reason = "template recursion too deep"
        else:
            reason = f"template failed: {type(exc).__name__}: {exc}"
        raise DataError(f"{where}: {reason}") from None
