"""pnp export print-shop's colour: a CMYK PDF/X-4 file per deck beside the sRGB one, and PNGs
tagged sRGB. Read back from the files written, by pypdf and Pillow's LittleCMS, and by
independent programs: qpdf, Ghostscript and ExifTool (.ci/run installs them)."""

from __future__ import annotations

import io
import math
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from PIL import Image, ImageCms
from pypdf import PdfReader
from pypdf.generic import ContentStream, DictionaryObject

from pnp.build.manifest import MANIFEST_NAME
from pnp.cli import cli
from tests.conftest import ROOT

GAME = "wurenshenghuan"  # its weapon symbols are drawn in greys, its cards in colours
XMP = {"x": "adobe:ns:meta/", "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
       "dc": "http://purl.org/dc/elements/1.1/", "xmp": "http://ns.adobe.com/xap/1.0/",
       "xmpMM": "http://ns.adobe.com/xap/1.0/mm/", "pdf": "http://ns.adobe.com/pdf/1.3/",
       "pdfxid": "http://www.npes.org/pdfx/ns/id/"}
RGB_OPERATORS = {b"rg", b"RG", b"sc", b"SC", b"scn", b"SCN", b"cs", b"CS"}


def export(out: Path) -> None:
    result = CliRunner().invoke(cli, ["--root", str(ROOT), "export", "print-shop", GAME, "--lang", "zh-Hant",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("shop") / "print-shop"
    export(out)
    return out


def program(name: str, package: str) -> str:
    found = shutil.which(name)
    if not found:
        pytest.fail(f"{name} not found: install Debian's {package} (apt-get install -y {package}; .ci/run does it)")
    return found


def decks(shop: Path) -> list[str]:
    return sorted(p.name.removesuffix("-cmyk.pdf") for p in shop.glob("*-cmyk.pdf"))


def test_every_deck_has_a_cmyk_pdf_beside_its_rgb_one_with_the_same_pages(shop: Path) -> None:
    names = decks(shop)
    assert names == sorted(p.stem for p in shop.glob("*.pdf") if not p.stem.endswith("-cmyk"))
    assert "item" in names
    for name in names:
        rgb, cmyk = PdfReader(shop / f"{name}.pdf"), PdfReader(shop / f"{name}-cmyk.pdf")
        assert len(cmyk.pages) == len(rgb.pages)
        for a, b in zip(rgb.pages, cmyk.pages, strict=True):
            for box in ("/MediaBox", "/TrimBox", "/BleedBox"):
                assert [float(v) for v in a[box]] == [float(v) for v in b[box]]
            assert "/ArtBox" not in b  # PDF/X: a TrimBox or an ArtBox, not both


def test_cmyk_pdf_declares_pdfx4_for_fogra39_with_its_profile(shop: Path) -> None:
    path = shop / "item-cmyk.pdf"
    assert path.read_bytes().startswith(b"%PDF-1.6")
    reader = PdfReader(path)
    assert reader.trailer.get("/ID") is not None
    intents = reader.trailer["/Root"]["/OutputIntents"]
    assert len(intents) == 1
    intent = intents[0].get_object()
    assert intent["/S"] == "/GTS_PDFX"
    assert intent["/OutputConditionIdentifier"] == "FOGRA39"
    assert intent["/RegistryName"] == "http://www.color.org"
    stream = intent["/DestOutputProfile"].get_object()
    assert stream["/N"] == 4
    profile = ImageCms.ImageCmsProfile(io.BytesIO(stream.get_data())).profile
    assert (profile.device_class, profile.xcolor_space.strip()) == ("prtr", "CMYK")
    assert "FOGRA39" in profile.profile_description
    # The XMP names the file PDF/X-4 and agrees with the Info dictionary; the dates are the
    # game's release date from its game.yaml, not the clock.
    xmp = ET.fromstring(reader.trailer["/Root"]["/Metadata"].get_object().get_data())
    description = xmp.find("rdf:RDF/rdf:Description", XMP)
    assert description is not None

    def field(name: str) -> str:
        element = description.find(name, XMP)
        assert element is not None, name
        return "".join(element.itertext()).strip()

    assert field("pdfxid:GTS_PDFXVersion") == "PDF/X-4"
    assert field("pdf:Trapped") == "False"
    assert field("xmpMM:DocumentID").startswith("uuid:")
    assert field("xmpMM:InstanceID").startswith("uuid:")
    assert field("xmpMM:RenditionClass") == "default"
    game = yaml.safe_load((ROOT / "card_data" / GAME / "game.yaml").read_text(encoding="utf-8"))
    released = str(game["date"])
    assert field("xmp:CreateDate") == field("xmp:ModifyDate") == f"{released}T00:00:00+00:00"
    info = reader.trailer["/Info"].get_object()
    assert info["/Trapped"] == "/False"
    assert info["/CreationDate"] == info["/ModDate"] == f"D:{released.replace('-', '')}000000+00'00'"
    assert info["/Title"] == field("dc:title")
    assert info["/Producer"] == field("pdf:Producer")
    assert info["/Creator"] == field("xmp:CreatorTool")
    assert info["/Subject"] == field("dc:description")
    assert info["/Keywords"] == field("pdf:Keywords")


def _colour_operations(reader: PdfReader) -> Iterator[tuple[bytes, tuple[float, ...]]]:
    """Every colour operator (and its operands) of every page and form, in drawing order."""
    seen: set[int] = set()

    def walk(stream: object, resources: DictionaryObject | None) -> Iterator[tuple[bytes, tuple[float, ...]]]:
        content = ContentStream(stream, reader)
        for operands, operator in content.operations:
            if operator in (b"k", b"K", b"g", b"G") or operator in RGB_OPERATORS:
                yield operator, tuple(float(v) for v in operands if not isinstance(v, str))
            if operator == b"Do" and resources is not None:
                reference = resources["/XObject"].raw_get(operands[0])
                if reference.idnum in seen:
                    continue
                seen.add(reference.idnum)
                form = reference.get_object()
                yield from walk(form, form.get("/Resources", resources))

    for page in reader.pages:
        yield from walk(page.get_contents(), page.get("/Resources"))


def test_cmyk_pdf_paints_every_colour_in_cmyk(shop: Path) -> None:
    assert decks(shop)
    for name in decks(shop):
        operators = {op for op, _ in _colour_operations(PdfReader(shop / f"{name}-cmyk.pdf"))}
        assert operators, name
        assert not operators & RGB_OPERATORS, name
        assert operators <= {b"k", b"K", b"g", b"G"}, name


def _lab(profile: ImageCms.ImageCmsProfile, mode: str, pixel: tuple[int, ...]) -> tuple[float, float, float]:
    transform = ImageCms.buildTransform(profile, ImageCms.createProfile("LAB"), mode, "LAB",
                                        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    converted = ImageCms.applyTransform(Image.new(mode, (1, 1), pixel), transform)
    assert converted is not None
    lab = converted.getpixel((0, 0))
    assert isinstance(lab, tuple)
    return lab[0] * 100 / 255, lab[1] - 128, lab[2] - 128


def test_each_cmyk_colour_prints_as_its_design_colour_and_greys_in_black_ink(shop: Path) -> None:
    """The sRGB and CMYK files are drawn by the same code, so their colour operators pair up
    one to one. Through the CMYK file's own output intent (LittleCMS), each CMYK colour must
    land near its sRGB colour (CIE L*a*b*; sRGB white and FOGRA39 paper both lightness 100,
    relative colorimetric), and a grey must be black ink alone."""
    reader = PdfReader(shop / "item-cmyk.pdf")
    intent = reader.trailer["/Root"]["/OutputIntents"][0].get_object()
    press = ImageCms.ImageCmsProfile(io.BytesIO(intent["/DestOutputProfile"].get_object().get_data()))
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))
    rgb_ops = list(_colour_operations(PdfReader(shop / "item.pdf")))
    cmyk_ops = list(_colour_operations(reader))
    assert len(rgb_ops) == len(cmyk_ops) > 0
    pairs = {(rgb, cmyk) for (_, rgb), (_, cmyk) in zip(rgb_ops, cmyk_ops, strict=True)}
    greys = 0
    errors = []
    for rgb, cmyk in pairs:
        design = _lab(srgb, "RGB", tuple(round(v * 255) for v in rgb))
        printed = _lab(press, "CMYK", tuple(round(v * 255) for v in cmyk))
        if rgb[0] == rgb[1] == rgb[2]:
            greys += 1
            assert cmyk[:3] == (0, 0, 0), (rgb, cmyk)
            if cmyk[3] < 1:  # full black ink is as dark as black ink alone goes
                assert abs(design[0] - printed[0]) < 3, (rgb, cmyk, design, printed)
        else:
            errors.append(math.dist(design, printed))
    assert greys >= 2  # the weapons' dark greys and the white of the cards
    assert errors and sum(errors) / len(errors) < 4
    assert max(errors) < 8


def _lab_bytes(data: bytes, i: int) -> tuple[float, float, float]:
    """The pixel at byte ``i`` of Pillow's LAB raster: L* scaled to 0–255, a* and b* signed bytes."""
    def signed(v: int) -> int:
        return v - 256 if v > 127 else v

    return data[i] * 100 / 255, signed(data[i + 1]), signed(data[i + 2])


def test_png_faces_are_tagged_srgb(shop: Path) -> None:
    pngs = sorted(shop.glob("*.png"))
    assert pngs
    for path in pngs:
        with Image.open(path) as image:
            assert image.mode == "RGB"
            icc = image.info.get("icc_profile")
        assert icc, path.name
        profile = ImageCms.ImageCmsProfile(io.BytesIO(icc)).profile
        assert (profile.xcolor_space.strip(), profile.device_class) == ("RGB", "mntr")
        assert "sRGB" in profile.profile_description


def test_export_gives_the_same_bytes_twice(shop: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    export(again)
    # The build record (.pnp-build.json) says when and from what; the files themselves are the same.
    names = sorted(p.name for p in shop.iterdir() if p.name != MANIFEST_NAME)
    assert names == sorted(p.name for p in again.iterdir() if p.name != MANIFEST_NAME)
    for name in names:
        assert (shop / name).read_bytes() == (again / name).read_bytes(), name


# --- Independent readers ---------------------------------------------------------------------


def test_qpdf_finds_no_error_in_any_pdf(shop: Path) -> None:
    qpdf = program("qpdf", "qpdf")
    for path in sorted(shop.glob("*.pdf")):
        result = subprocess.run([qpdf, "--check", str(path)], capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "No syntax or stream encoding errors found" in result.stdout, result.stdout


def test_ghostscript_reads_every_pdf_without_warning(shop: Path) -> None:
    gs = program("gs", "ghostscript")
    for path in sorted(shop.glob("*.pdf")):
        result = subprocess.run([gs, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dPDFSTOPONERROR",
                                 "-dPDFSTOPONWARNING", "-sDEVICE=nullpage", "-o", "/dev/null", str(path)],
                                capture_output=True, text=True)
        assert result.returncode == 0 and not result.stdout.strip() and not result.stderr.strip(), \
            f"{path.name}: {result.stdout}{result.stderr}"


def test_exiftool_validates_the_metadata_and_reads_pdfx4(shop: Path) -> None:
    exiftool = program("exiftool", "libimage-exiftool-perl")
    assert decks(shop)
    for path in sorted(shop.glob("*-cmyk.pdf")):
        result = subprocess.run([exiftool, "-a", "-s", "-G1", "-validate", "-warning", "-XMP:all", "-PDF:all",
                                 str(path)], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        lines = {}
        for line in result.stdout.splitlines():
            key, _, value = line.partition(":")
            lines.setdefault(key.split()[-1] if key.split() else key, []).append(value.strip())
        assert lines["Validate"] == ["OK"], result.stdout
        assert lines["GTS_PDFXVersion"] == ["PDF/X-4"], result.stdout
        assert lines["Trapped"] == ["False", "False"], result.stdout  # XMP and Info
        assert len(set(lines["Title"])) == 1 and len(lines["Title"]) == 2, result.stdout
    png = next(shop.glob("*.png"))
    result = subprocess.run([exiftool, "-validate", "-warning", "-s", "-ProfileDescription", str(png)],
                            capture_output=True, text=True)
    assert "Validate" in result.stdout and ": OK" in result.stdout, result.stdout
    assert "sRGB" in result.stdout, result.stdout


def test_ghostscript_separates_the_cmyk_pdf_into_a_proof_of_the_design(shop: Path, tmp_path: Path) -> None:
    """Ghostscript rasterises a CMYK page into its four plates (no conversion: the file's own
    ink values); LittleCMS turns the plates into sRGB through the file's output intent, as a
    print shop's soft proof does. That proof must look like Ghostscript's render of the sRGB
    file: mean CIE76 difference per pixel under 3. The pistol, drawn in greys, prints its
    symbol in black ink alone (pixels with black ink and no other)."""
    gs = program("gs", "ghostscript")
    intent = PdfReader(shop / "item-cmyk.pdf").trailer["/Root"]["/OutputIntents"][0].get_object()
    press = ImageCms.ImageCmsProfile(io.BytesIO(intent["/DestOutputProfile"].get_object().get_data()))
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))
    to_lab_press = ImageCms.buildTransform(press, ImageCms.createProfile("LAB"), "CMYK", "LAB",
                                           renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    to_lab_srgb = ImageCms.buildTransform(srgb, ImageCms.createProfile("LAB"), "RGB", "LAB",
                                          renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    # Page 1: the wine's front; page 41: the pistol's (five kinds of four cards, front and back, before it).
    for page, k_only_wanted in ((1, False), (41, True)):
        common = ["-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-r40", "-dTextAlphaBits=4", "-dGraphicsAlphaBits=4",
                  f"-dFirstPage={page}", f"-dLastPage={page}"]
        subprocess.run([gs, *common, "-sDEVICE=tiff32nc", "-o", str(tmp_path / "cmyk.tif"),
                        str(shop / "item-cmyk.pdf")], check=True)
        subprocess.run([gs, *common, "-sDEVICE=png16m", "-o", str(tmp_path / "rgb.png"),
                        str(shop / "item.pdf")], check=True)
        with Image.open(tmp_path / "cmyk.tif") as plates, Image.open(tmp_path / "rgb.png") as rgb:
            assert plates.mode == "CMYK"
            assert plates.size == rgb.size
            proof = ImageCms.applyTransform(plates, to_lab_press)
            design = ImageCms.applyTransform(rgb.convert("RGB"), to_lab_srgb)
            assert proof is not None and design is not None
            ink = plates.tobytes()
            k_only = sum(1 for i in range(0, len(ink), 4) if ink[i + 3] > 128 and not any(ink[i:i + 3]))
            lab_proof, lab_design = proof.tobytes(), design.tobytes()
        total = sum(math.dist(_lab_bytes(lab_proof, i), _lab_bytes(lab_design, i)) for i in range(0, len(lab_proof), 3))
        mean = total / (len(lab_proof) / 3)
        assert mean < 3, (page, mean)
        assert (k_only > 50) == k_only_wanted, (page, k_only)



def test_contact_sheets_are_tagged_srgb(tmp_path: Path) -> None:
    """Not only the print shop's PNGs: the other exports' too (and `build --png`'s, which
    test_build_tisigui holds to it)."""
    result = CliRunner().invoke(cli, ["--root", str(ROOT), "export", "contact", "niutouwang", "--lang", "zh-Hans",
                                      "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    pngs = sorted(tmp_path.glob("*.png"))
    assert pngs
    for path in pngs:
        with Image.open(path) as image:
            icc = image.info.get("icc_profile")
        assert icc, path.name
        assert "sRGB" in ImageCms.ImageCmsProfile(io.BytesIO(icc)).profile.profile_description
