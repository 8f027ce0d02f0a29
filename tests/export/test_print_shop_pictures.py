"""Raster pictures in the print shop's PDF/X-4 file: PDF/X-4 takes RGB only as ICC-based colour,
so pnp converts a picture's pixels to the output intent's CMYK, as it does every design colour,
and keeps its alpha as a soft mask; the sRGB file keeps the picture as it is. Read back by qpdf,
Ghostscript and ExifTool (.ci/run installs them)."""

from __future__ import annotations

import io
import json
import math
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image, ImageCms, ImageDraw
from pypdf import PdfReader

from pnp.cli import cli
from tests.conftest import edit, game_workspace
from tests.export.test_print_shop_colour import _lab_bytes, program

MM = 72 / 25.4


def _photo(size: tuple[int, int], alpha: bool) -> Image.Image:
    """A picture of soft colours a press can print (gradients of muted hues), with, if asked,
    a transparent band round a painted oval."""
    width, height = size
    image = Image.new("RGB", size)
    image.putdata([(90 + 100 * x // width, 120 + 60 * y // height, 170 - 80 * x // width)
                   for y in range(height) for x in range(width)])
    draw = ImageDraw.Draw(image)
    draw.rectangle((width // 8, height // 8, width // 3, height // 2), fill=(200, 150, 90))
    if not alpha:
        return image
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).ellipse((width // 10, height // 10, width * 9 // 10, height * 9 // 10), fill=255)
    image.putalpha(mask)
    return image


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tisigui's identity cards with raster art: the ghost a PNG with transparency, the human a
    JPEG (the shipped art is SVG, drawn as vectors)."""
    root = game_workspace(tmp_path_factory.mktemp("pictures"), "tisigui")
    art = root / "card_data" / "tisigui" / "art"
    _photo((600, 480), alpha=True).save(art / "ghost.png")
    _photo((600, 480), alpha=False).save(art / "human.jpg", quality=92)
    components = root / "card_data" / "tisigui" / "components.yaml"
    edit(components, "art: art/ghost.svg", "art: art/ghost.png")
    edit(components, "art: art/human.svg", "art: art/human.jpg")
    out = root / "shop"
    result = CliRunner().invoke(cli, ["--root", str(root), "export", "print-shop", "tisigui", "--lang", "zh-Hant",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _images(path: Path) -> list[dict[str, object]]:
    """Every image XObject of a PDF, as qpdf reads it (its dictionary)."""
    qpdf = program("qpdf", "qpdf")
    dump = subprocess.run([qpdf, "--json=2", "--json-key=qpdf", str(path)], capture_output=True, text=True,
                          check=True)
    objects = json.loads(dump.stdout)["qpdf"][1]
    found = []
    for value in objects.values():
        stream = value.get("stream") if isinstance(value, dict) else None
        if stream and stream["dict"].get("/Subtype") == "/Image":
            found.append(stream["dict"])
    return found


def test_pictures_are_cmyk_in_the_pdfx_file_and_rgb_in_the_srgb_one(shop: Path) -> None:
    cmyk = _images(shop / "identity-cmyk.pdf")
    pictures = [image for image in cmyk if image.get("/ColorSpace") != "/DeviceGray"]
    # Two pictures (ghost and human), each once however many cards show it.
    assert [image["/ColorSpace"] for image in pictures] == ["/DeviceCMYK", "/DeviceCMYK"]
    assert sorted((image["/Width"], image["/Height"]) for image in pictures) == [(600, 480), (600, 480)]
    # The PNG's transparency is a soft mask (grey, as PDF requires of a mask), the JPEG has none.
    assert sorted("/SMask" in image for image in pictures) == [False, True]
    masks = [image for image in cmyk if image.get("/ColorSpace") == "/DeviceGray"]
    assert len(masks) == 1
    qpdf = program("qpdf", "qpdf")
    plain = subprocess.run([qpdf, "--qdf", "--object-streams=disable", str(shop / "identity-cmyk.pdf"), "-"],
                           capture_output=True, check=True).stdout
    assert b"/DeviceRGB" not in plain and b"/CalRGB" not in plain
    srgb = _images(shop / "identity.pdf")
    assert [image["/ColorSpace"] for image in srgb if image.get("/ColorSpace") != "/DeviceGray"] == ["/DeviceRGB"] * 2


def test_qpdf_ghostscript_and_exiftool_accept_the_file(shop: Path) -> None:
    path = shop / "identity-cmyk.pdf"
    checked = subprocess.run([program("qpdf", "qpdf"), "--check", str(path)], capture_output=True, text=True)
    assert checked.returncode == 0 and "No syntax or stream encoding errors" in checked.stdout, checked.stdout
    gs = subprocess.run([program("gs", "ghostscript"), "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dPDFSTOPONERROR",
                         "-sDEVICE=nullpage", str(path)], capture_output=True, text=True)
    assert gs.returncode == 0 and not gs.stdout.strip() and not gs.stderr.strip(), gs.stdout + gs.stderr
    exif = subprocess.run([program("exiftool", "libimage-exiftool-perl"), "-validate", "-warning", "-s",
                           "-GTS_PDFXVersion", str(path)], capture_output=True, text=True)
    assert "GTS_PDFXVersion" in exif.stdout and "PDF/X-4" in exif.stdout, exif.stdout
    assert ": OK" in exif.stdout, exif.stdout


@pytest.mark.parametrize("page", [1, 3])  # the ghost's front (PNG), then a human's (JPEG)
def test_the_picture_proofs_as_it_shows_in_srgb(shop: Path, tmp_path: Path, page: int) -> None:
    """Ghostscript separates the CMYK page into its plates; LittleCMS proofs them through the
    file's output intent; over the picture that proof must look like Ghostscript's render of the
    sRGB file (mean CIE76 difference under 3). The press's plates there carry colour, not black
    alone (a picture dropped, or left black, fails)."""
    gs = program("gs", "ghostscript")
    intent = PdfReader(shop / "identity-cmyk.pdf").trailer["/Root"]["/OutputIntents"][0].get_object()
    press = ImageCms.ImageCmsProfile(io.BytesIO(intent["/DestOutputProfile"].get_object().get_data()))
    to_lab_press = ImageCms.buildTransform(press, ImageCms.createProfile("LAB"), "CMYK", "LAB",
                                           renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    to_lab_srgb = ImageCms.buildTransform(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")),
                                          ImageCms.createProfile("LAB"), "RGB", "LAB",
                                          renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    dpi = 72
    common = ["-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", f"-r{dpi}", f"-dFirstPage={page}", f"-dLastPage={page}"]
    subprocess.run([gs, *common, "-sDEVICE=tiff32nc", "-o", str(tmp_path / "cmyk.tif"),
                    str(shop / "identity-cmyk.pdf")], check=True)
    subprocess.run([gs, *common, "-sDEVICE=png16m", "-o", str(tmp_path / "rgb.png"), str(shop / "identity.pdf")],
                   check=True)
    # The picture's box on the card is [6, 9, 51, 40] mm from the trim's top-left (tisigui's
    # identity layout), with 3 mm of bleed round the trim; its seal (a vector) covers the top
    # left, so the part compared starts right of and below it, inside the picture.
    px = dpi / 25.4
    box = tuple(round(v * px) for v in (22, 22, 3 + 6 + 51 - 4, 3 + 9 + 40 - 3))
    with Image.open(tmp_path / "cmyk.tif") as plates, Image.open(tmp_path / "rgb.png") as rgb:
        plates, rgb = plates.crop(box), rgb.convert("RGB").crop(box)
        proof = ImageCms.applyTransform(plates, to_lab_press)
        design = ImageCms.applyTransform(rgb, to_lab_srgb)
        assert proof is not None and design is not None
        ink = plates.tobytes()
    coloured = sum(1 for i in range(0, len(ink), 4) if sum(ink[i:i + 3]) > 60)
    assert coloured > len(ink) / 4 * 0.8, coloured
    lab_proof, lab_design = proof.tobytes(), design.tobytes()
    total = sum(math.dist(_lab_bytes(lab_proof, i), _lab_bytes(lab_design, i)) for i in range(0, len(lab_proof), 3))
    assert total / (len(lab_proof) / 3) < 3
