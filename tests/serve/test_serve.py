"""``pnp serve`` without a browser: which games a save touches, what the server agrees to send.

The page itself, in a real browser, is tests/serve/test_serve_browser.py.
"""

from __future__ import annotations

import http.client
import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from pnp.core.errors import PnpError
from pnp.core.workspace import BUNDLED_FONTS, Workspace
from pnp.serve.markdown import markdown_html
from pnp.serve.preview import Preview
from pnp.serve.server import PreviewServer
from pnp.serve.views import State
from pnp.serve.watch import affected_games

SLUGS = ["aizhewudi", "niutouwang", "tisigui"]


@pytest.mark.parametrize(("changed", "expected"), [
    (["card_data/tisigui/components.yaml"], ["tisigui"]),
    (["templates/niutouwang/rulebook.md.j2", "card_data/tisigui/tables.yaml"], ["niutouwang", "tisigui"]),
    (["card_data/wurenshenghuan/components.yaml"], []),  # a game that is not served
    (["fonts/PnpSansTC-Regular.ttf"], SLUGS),
    (["templates/base.md.j2"], SLUGS),  # shared by every game
    (["card_data/tisigui/components.yaml", "templates/_shared/x.j2"], SLUGS),
])
def test_a_save_touches_its_own_game_and_a_shared_file_every_game(changed: list[str], expected: list[str]) -> None:
    assert affected_games(changed, SLUGS) == expected


def test_narration_html_shows_raw_html_as_text() -> None:
    html = markdown_html("# 標題\n\n<script>alert(1)</script> **粗**\n")
    assert "<h1>標題</h1>" in html
    assert "<strong>粗</strong>" in html
    assert "<script>" not in html
    assert "&lt;script&gt;" in html


@pytest.fixture
def served(workspace_copy: Path) -> Iterator[tuple[PreviewServer, Preview, Path]]:
    """A preview server over a hand-made build root (no build): the boundary of what it sends."""
    preview = Preview(Workspace(workspace_copy), "tisigui")
    faces = preview.root / "tisigui" / "zh-Hant" / "png"
    faces.mkdir(parents=True)
    (faces / "identity-ghost-front.png").write_bytes(b"\x89PNG face")
    (preview.root / ".pnp-build.json").write_text("{}")
    (workspace_copy / "secret.txt").write_text("not for the browser")
    (faces / "escape.png").symlink_to(workspace_copy / "secret.txt")
    (faces / "up").symlink_to(workspace_copy)
    with PreviewServer(preview, "127.0.0.1", 0) as server:
        yield server, preview, workspace_copy


def _get(server: PreviewServer, path: str, host: str | None = None) -> tuple[int, bytes]:
    address = server.url.removeprefix("http://").rstrip("/")
    name, port = address.rsplit(":", 1)
    connection = http.client.HTTPConnection(name, int(port), timeout=20)
    try:
        # putrequest sends the path exactly as given: no client-side clean-up of ../
        connection.putrequest("GET", path, skip_host=host is not None)
        if host is not None:
            connection.putheader("Host", host)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_serves_the_build_root_and_nothing_outside_it(served: tuple[PreviewServer, Preview, Path]) -> None:
    server, _, _ = served
    assert _get(server, "/files/tisigui/zh-Hant/png/identity-ghost-front.png?v=1") == (200, b"\x89PNG face")
    outside = [
        "/files/../secret.txt",
        "/files/../../secret.txt",
        "/files/tisigui/zh-Hant/png/../../../../secret.txt",
        "/files/%2e%2e/%2e%2e/secret.txt",
        "/files/tisigui%2f..%2f..%2f..%2fsecret.txt",
        "/files/tisigui/zh-Hant/png/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fsecret.txt",
        "/files/..%5c..%5csecret.txt",
        "/files//etc/passwd",
        "/files/%2Fetc%2Fpasswd",
        "/files/tisigui/zh-Hant/png/escape.png",  # a symlink out of the root
        "/files/tisigui/zh-Hant/png/up/secret.txt",
        "/files/tisigui/zh-Hant/png/up/card_data/tisigui/game.yaml",
        "/files/.pnp-build.json",  # hidden files: the build record
        "/files/tisigui/zh-Hant/png/identity-ghost-front.png%00.txt",
        "/pages/../secret.txt",
        "/fonts/OFL.txt",  # fonts/: only the four faces the page uses
        "/fonts/../secret.txt",
        "/fonts/%2e%2e/secret.txt",
        "/secret.txt",
        "/card_data/tisigui/game.yaml",
    ]
    for path in outside:
        status, body = _get(server, path)
        assert status == 404, path
        assert b"not for the browser" not in body


def test_serves_the_fonts_the_page_uses(served: tuple[PreviewServer, Preview, Path]) -> None:
    server, _, root = served
    status, body = _get(server, "/fonts/PnpSansTC-Regular.ttf")
    assert status == 200
    # The workspace has no fonts/ of its own: the faces installed with pnp.
    assert not (root / "fonts").exists()
    assert body == (BUNDLED_FONTS / "PnpSansTC-Regular.ttf").read_bytes()


def test_refuses_other_host_names_while_bound_to_loopback(served: tuple[PreviewServer, Preview, Path]) -> None:
    server, _, _ = served
    port = server.url.rstrip("/").rsplit(":", 1)[1]
    assert _get(server, "/", host=f"attacker.example:{port}")[0] == 403
    assert _get(server, "/files/tisigui/zh-Hant/png/identity-ghost-front.png", host="attacker.example")[0] == 403
    assert _get(server, "/", host=f"localhost:{port}")[0] == 200
    assert _get(server, "/", host=f"127.0.0.1:{port}")[0] == 200


def test_version_answers_at_once_without_after_and_waits_with_it(
        served: tuple[PreviewServer, Preview, Path]) -> None:
    server, preview, _ = served
    status, body = _get(server, "/version")
    assert status == 200
    assert json.loads(body)["version"] == preview.state.version == 0
    assert isinstance(preview.state, State)
    # A version other than the current one is answered at once (the page is behind).
    status, body = _get(server, "/version?after=7")
    assert json.loads(body)["version"] == 0


def test_a_taken_port_is_an_error_naming_it(workspace_copy: Path) -> None:
    preview = Preview(Workspace(workspace_copy), "tisigui")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(PnpError, match=f"cannot serve on 127.0.0.1:{port}: .*--port"):
            PreviewServer(preview, "127.0.0.1", port)


def test_an_unknown_game_is_an_error_before_serving(workspace_copy: Path) -> None:
    with pytest.raises(PnpError, match="unknown game 'tisigu'.*did you mean 'tisigui'"):
        Preview(Workspace(workspace_copy), "tisigu")


def test_pnp_toml_gives_serve_its_port_paper_and_script(workspace_copy: Path) -> None:
    from click.testing import CliRunner

    from pnp.cli import cli

    (workspace_copy / "pnp.toml").write_text('port = 9999\npaper = "letter"\nlang = "zh-Hans"\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["--root", str(workspace_copy), "serve", "--help"])
    assert result.exit_code == 0, result.output
    assert "[default: 9999;" in result.output
    assert "[default: letter]" in result.output
    assert "[default: zh-Hans]" in result.output
