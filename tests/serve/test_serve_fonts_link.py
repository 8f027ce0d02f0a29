"""``pnp serve``'s /fonts/ under the path policy (issue 23): a fonts/ that is a link out of the
workspace serves nothing from where it leads; one that stays inside serves its faces."""

from __future__ import annotations

import http.client
import shutil
from pathlib import Path

from pnp.core.workspace import BUNDLED_FONTS, Workspace
from pnp.serve.preview import Preview
from pnp.serve.server import PreviewServer

FACE = "PnpSansTC-Regular.ttf"


def _get(server: PreviewServer, path: str) -> tuple[int, bytes]:
    name, port = server.url.removeprefix("http://").rstrip("/").rsplit(":", 1)
    connection = http.client.HTTPConnection(name, int(port), timeout=20)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def _served_face(root: Path) -> tuple[int, bytes]:
    with PreviewServer(Preview(Workspace(root), "tisigui"), "127.0.0.1", 0) as server:
        return _get(server, f"/fonts/{FACE}")


def test_a_fonts_folder_linked_out_of_the_workspace_serves_nothing(workspace_copy: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # Any file of the user's, by the name of a face the page asks for.
    (elsewhere / FACE).write_bytes(b"the user's own file, not for the browser")
    (workspace_copy / "fonts").symlink_to(elsewhere)
    status, body = _served_face(workspace_copy)
    assert status == 404
    assert b"not for the browser" not in body


def test_a_fonts_folder_linked_inside_the_workspace_serves_its_faces(workspace_copy: Path) -> None:
    mine = workspace_copy / "my-fonts"
    mine.mkdir()
    shutil.copyfile(BUNDLED_FONTS / FACE, mine / FACE)
    (workspace_copy / "fonts").symlink_to(mine)
    assert _served_face(workspace_copy) == (200, (mine / FACE).read_bytes())
