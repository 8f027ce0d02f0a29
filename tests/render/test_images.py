"""The ``image`` element, read back from the PDFs the build writes: each picture one XObject
however many cards show it, an SVG drawn as vector paths, CMYK and ICC-tagged pictures in the
right colours, the print checks (build warning, ``pnp check`` finding), the build record, and
hostile pictures refused as ``Error:`` lines with the file, line and field, nothing written."""

from __future__ import annotations

import io
import os
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest
from PIL import Image, ImageCms
from pypdf import PdfReader
from pypdf.generic import IndirectObject

from tests.conftest import ROOT, edit

PNP = [sys.executable, "-m", "pnp"]
PRESS_PROFILE = ROOT / "pnp" / "render" / "icc"

CARDS = '''  - id: art
    name: 圖卡
    note: 每張一幅圖
    size: poker
    front: art_front
    back: art_back
    cards:
      - {id: a, count: 8, fields: {art: art/photo.png}}
      - {id: b, count: 2, fields: {art: art/photo.jpg}}
      - {id: c, count: 1, fields: {art: art/ghost.svg}}
      - {id: d, count: 1, fields: {art: art/photo.webp}}

'''
LAYOUTS = '''  art_front:
    background: "#ffffff"
    elements:
      - {type: image, box: [8, 8, 47, 40], file: "{art}", fit: contain}
  art_back:
    background: "#000000"
    elements:
      - {type: image, box: [0, 0, 100%, 100%], file: art/ghost.svg, bleed: true}

'''
GHOST = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">'
         '<path d="M20 90 L20 40 C20 10 80 10 80 40 L80 90 Z" fill="#eeeeee"/>'
         '<circle cx="40" cy="45" r="6" fill="#222222"/></svg>')


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PNP, *args], cwd=root, capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL, env={**os.environ, "NO_COLOR": "1"})


def _photo(size: tuple[int, int] = (1000, 800)) -> Image.Image:
    image = Image.new("RGB", size, "#336699")
    image.paste((255, 204, 0), (size[0] // 4, size[1] // 4, size[0] * 3 // 4, size[1] * 3 // 4))
    return image


@pytest.fixture(scope="module")
def starter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace from `pnp new` with a deck of pictures: a PNG on 8 cards, a JPEG, a WebP and an
    SVG that is also every back, full bleed."""
    root = tmp_path_factory.mktemp("images") / "ws"
    root.mkdir()
    done = _run(root, "new", "mg")
    assert done.returncode == 0, done.stderr
    game = root / "card_data" / "mg"
    (game / "art").mkdir()
    photo = _photo()
    photo.save(game / "art" / "photo.png")
    photo.save(game / "art" / "photo.jpg", quality=90)
    photo.save(game / "art" / "photo.webp")
    (game / "art" / "ghost.svg").write_text(GHOST, encoding="utf-8")
    edit(game / "components.yaml", "components:\n", "components:\n" + CARDS)
    edit(game / "components.yaml", "layouts:\n", "layouts:\n" + LAYOUTS)
    return root


def _copy(starter: Path, tmp_path: Path) -> Path:
    import shutil

    root = tmp_path / "ws"
    shutil.copytree(starter, root)
    return root


def _xobjects(reader: PdfReader) -> dict[int, tuple[str, object]]:
    """Every XObject any page reaches (through forms), by object number: its name and object."""
    found: dict[int, tuple[str, object]] = {}

    def visit(resources: object) -> None:
        xobjects = resources.get("/XObject") if resources else None  # type: ignore[attr-defined]
        if not xobjects:
            return
        for name, ref in xobjects.get_object().items():
            if not isinstance(ref, IndirectObject) or ref.idnum in found:
                continue
            obj = ref.get_object()
            found[ref.idnum] = (str(name), obj)
            visit(obj.get("/Resources"))

    for page in reader.pages:
        visit(page.get("/Resources"))
    return found


def _images(reader: PdfReader) -> list[object]:
    return [obj for _, obj in _xobjects(reader).values() if obj.get("/Subtype") == "/Image"]  # type: ignore[attr-defined]


def test_each_picture_is_one_xobject_and_the_svg_is_vector_paths(starter: Path, tmp_path: Path) -> None:
    root = _copy(starter, tmp_path)
    done = _run(root, "build", "mg", "--lang", "zh-Hant")
    assert done.returncode == 0, done.stderr
    reader = PdfReader(root / "output" / "mg" / "zh-Hant" / "components.pdf")
    # Three raster files (PNG, JPEG, WebP) on 11 fronts: three image XObjects, no more.
    images = _images(reader)
    assert len(images) == 3
    assert {obj.get("/Width") for obj in images} == {1000}  # type: ignore[attr-defined]
    # The JPEG is embedded as it is (DCT), not decoded and re-encoded.
    assert sum("/DCTDecode" in str(obj.get("/Filter")) for obj in images) == 1  # type: ignore[attr-defined]
    forms = {name: obj for name, obj in _xobjects(reader).values()
             if name.startswith("/FormXob.img-") and "-a" not in name[14:]}
    # Four picture forms: the three rasters and the SVG, which 12 backs and one front share.
    assert len(forms) == 4
    svg = [obj for obj in forms.values()
           if not any(o.get("/Subtype") == "/Image" for o in  # type: ignore[attr-defined]
                      (r.get_object() for r in (obj.get("/Resources", {}).get("/XObject") or {}).values()))]
    assert len(svg) == 1
    ops = svg[0].get_data()  # type: ignore[attr-defined]
    assert b" c" in ops or b"c\n" in ops  # its curves drawn as path operators
    assert b" f" in ops or b"f\n" in ops or b"f*" in ops


def _embedded_colour(pdf: Path) -> tuple[str, tuple[int, ...]]:
    reader = PdfReader(pdf)
    (image,) = _images(reader)
    space = str(image.get("/ColorSpace"))  # type: ignore[attr-defined]
    raw = image.decode_as_image()  # type: ignore[attr-defined]
    return space, raw.convert("RGB").getpixel((raw.width // 2, raw.height // 2))


def _one_picture(root: Path, name: str) -> None:
    components = root / "card_data" / "mg" / "components.yaml"
    text = components.read_text(encoding="utf-8")
    for old in ("art/photo.png", "art/photo.jpg", "art/photo.webp"):
        text = text.replace("{art: " + old + "}", "{art: " + name + "}")
    text = text.replace("file: art/ghost.svg, bleed: true", f"file: {name}, bleed: true")
    text = text.replace("{art: art/ghost.svg}", "{art: " + name + "}")
    components.write_text(text, encoding="utf-8")


def test_a_cmyk_jpeg_tagged_with_its_press_profile_prints_in_its_colours(starter: Path, tmp_path: Path) -> None:
    root = _copy(starter, tmp_path)
    profile_path = PRESS_PROFILE / "FOGRA39-pnp.icc"
    press = ImageCms.ImageCmsProfile(str(profile_path))
    red = Image.new("RGB", (64, 64), (170, 70, 60))
    cmyk = ImageCms.profileToProfile(red, ImageCms.createProfile("sRGB"), press, outputMode="CMYK")
    assert cmyk is not None
    cmyk.save(root / "card_data" / "mg" / "art" / "press.jpg", quality=95,
              icc_profile=press.tobytes())
    _one_picture(root, "art/press.jpg")
    done = _run(root, "build", "mg", "--lang", "zh-Hant")
    assert done.returncode == 0, done.stderr
    space, (r, g, b) = _embedded_colour(root / "output" / "mg" / "zh-Hant" / "components.pdf")
    assert space == "/DeviceRGB"
    # Through the press profile and back: within a few levels of the red it was made from.
    assert abs(r - 170) <= 12 and abs(g - 70) <= 12 and abs(b - 60) <= 12, (r, g, b)


def test_an_untagged_cmyk_jpeg_is_not_printed_inverted(starter: Path, tmp_path: Path) -> None:
    root = _copy(starter, tmp_path)
    Image.new("CMYK", (64, 64), (0, 255, 255, 0)).save(root / "card_data" / "mg" / "art" / "plain.jpg")
    _one_picture(root, "art/plain.jpg")
    assert _run(root, "build", "mg", "--lang", "zh-Hant").returncode == 0
    _, (r, g, b) = _embedded_colour(root / "output" / "mg" / "zh-Hant" / "components.pdf")
    assert r > 200 and g < 50 and b < 50, (r, g, b)


def test_a_coarse_picture_is_a_build_warning_and_a_check_finding(starter: Path, tmp_path: Path) -> None:
    root = _copy(starter, tmp_path)
    _photo((120, 100)).save(root / "card_data" / "mg" / "art" / "photo.png")  # ~65 dpi at 47 mm
    done = _run(root, "build", "mg", "--lang", "zh-Hant")
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.startswith("warning:")]
    assert any("art/photo.png prints at 65 dpi on card 'a'" in line and "components.yaml:" in line
               and ".file:" in line for line in warnings), done.stderr
    checked = _run(root, "check", "mg", "--format", "json")
    import json

    findings = json.loads(checked.stdout)["games"]["mg"]["findings"]
    low = [f for f in findings if f["code"] == "low-resolution"]
    assert [f["file"] for f in low] == ["art/photo.png"] and low[0]["dpi"] == pytest.approx(64.8, abs=0.5)
    assert checked.returncode == 1


def test_a_bleed_picture_that_stops_short_of_the_bleed_is_a_finding(starter: Path, tmp_path: Path) -> None:
    root = _copy(starter, tmp_path)
    edit(root / "card_data" / "mg" / "components.yaml", "file: art/ghost.svg, bleed: true",
         "file: art/ghost.svg, bleed: true, fit: contain")
    import json

    checked = _run(root, "check", "mg", "--format", "json")
    findings = json.loads(checked.stdout)["games"]["mg"]["findings"]
    assert [f["code"] for f in findings if f["kind"] == "image"] == ["short-of-bleed"]


def test_a_redrawn_picture_rebuilds_what_shows_it(starter: Path, tmp_path: Path) -> None:
    root = _copy(starter, tmp_path)
    assert _run(root, "build", "mg", "--lang", "zh-Hant").returncode == 0
    _photo((1000, 801)).save(root / "card_data" / "mg" / "art" / "photo.png")
    done = _run(root, "build", "mg", "--lang", "zh-Hant")
    assert "components.pdf rebuilt (card_data/mg/art/photo.png changed)" in done.stderr, done.stderr


def _png_claiming(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` × ``height`` and holds one tiny compressed row: a
    decompression bomb's shape without its bytes."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 64))
            + chunk(b"IEND", b""))


BILLION_LAUGHS = ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">'
                  '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>'
                  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&c;</text></svg>')
EXTERNAL = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            'width="10" height="10"><image xlink:href="file:///etc/passwd" width="10" height="10"/></svg>')


def _truncated_jpeg() -> bytes:
    out = io.BytesIO()
    _photo().save(out, "JPEG", quality=90)
    return out.getvalue()[:4000]


HOSTILE = {
    "bomb-png": ("art/photo.png", lambda: _png_claiming(30_000, 30_000), "more than the limit of 50,000,000 pixels"),
    "truncated-jpeg": ("art/photo.jpg", _truncated_jpeg, "is not a whole JPEG image"),
    "svg-external-href": ("art/ghost.svg", lambda: EXTERNAL.encode(), "refers outside itself"),
    "svg-billion-laughs": ("art/ghost.svg", lambda: BILLION_LAUGHS.encode(), "may not declare a DTD or entities"),
    "svg-with-text": ("art/ghost.svg", lambda: GHOST.replace("</svg>", "<text>鬼</text></svg>").encode(),
                      "holds text (<text>)"),
    "png-named-jpeg": ("art/photo.jpg", lambda: _png_bytes(), "is not a JPEG image"),
}


def _png_bytes() -> bytes:
    out = io.BytesIO()
    _photo((50, 40)).save(out, "PNG")
    return out.getvalue()


def _assert_refused(done: subprocess.CompletedProcess[str], elapsed: float, root: Path, says: str,
                    where: str) -> None:
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("Error: ")]
    assert errors and says in done.stderr, done.stderr
    assert where in done.stderr, done.stderr
    assert not (root / "output").exists()
    assert elapsed < 20


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_picture_is_an_error_at_the_field_that_names_it(starter: Path, tmp_path: Path,
                                                                   case: str) -> None:
    root = _copy(starter, tmp_path)
    name, make, says = HOSTILE[case]
    (root / "card_data" / "mg" / name).write_bytes(make())
    start = time.monotonic()
    done = _run(root, "build", "mg", "--lang", "zh-Hant")
    # A name a card gives is located at that card's field; the SVG also at the back layout's.
    _assert_refused(done, time.monotonic() - start, root, says, "components.yaml:")
    assert "on card " in done.stderr and "fields.art" in done.stderr


def test_a_path_leaving_the_art_folder_is_an_error(starter: Path, tmp_path: Path) -> None:
    root = _copy(starter, tmp_path)
    edit(root / "card_data" / "mg" / "components.yaml", "{art: art/photo.webp}", "{art: art/../photo.png}")
    start = time.monotonic()
    done = _run(root, "build", "mg", "--lang", "zh-Hant")
    _assert_refused(done, time.monotonic() - start, root, "may not hold '..'", "fields.art")


def test_a_symlink_leaving_the_art_folder_is_an_error(starter: Path, tmp_path: Path) -> None:
    root = _copy(starter, tmp_path)
    outside = tmp_path / "secret.png"
    _photo((50, 40)).save(outside)
    (root / "card_data" / "mg" / "art" / "photo.webp").unlink()
    (root / "card_data" / "mg" / "art" / "photo.webp").symlink_to(outside)
    start = time.monotonic()
    done = _run(root, "build", "mg", "--lang", "zh-Hant")
    _assert_refused(done, time.monotonic() - start, root, "leads outside the game's art/ folder", "fields.art")


def test_tisigui_prints_its_own_art_as_vectors(tmp_path: Path) -> None:
    from tests.conftest import game_workspace

    root = game_workspace(tmp_path, "tisigui", templates=True)
    done = _run(root, "build", "tisigui", "--lang", "zh-Hans")
    assert done.returncode == 0, done.stderr
    reader = PdfReader(root / "output" / "tisigui" / "zh-Hans" / "components.pdf")
    forms = sorted(name for name, _ in _xobjects(reader).values() if name.startswith("/FormXob.img-"))
    # ghost.svg, human.svg and night.svg (the identity and reference backs share it): three forms,
    # all vector, however many of the 7 cards show them.
    assert len(forms) == 3
    assert _images(reader) == []
