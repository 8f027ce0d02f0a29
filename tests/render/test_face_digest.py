"""A face's key (pnp.render.facecache.digest) is the SHA-256 of a byte stream written out here
by hand for each kind of value, so that keys kept on disk by an earlier process still match."""

from __future__ import annotations

import enum
import hashlib
from dataclasses import dataclass
from pathlib import PurePosixPath

import pytest

from pnp.render.facecache import Uncacheable, digest


def sha(stream: bytes) -> str:
    return hashlib.sha256(stream).hexdigest()


@dataclass(frozen=True)
class Spot:
    name: str
    size: tuple[float, float]
    where: str = "file.yaml:3"  # where it was written: never part of the key
    name_where: str = "file.yaml:4"


class Ink(enum.Enum):
    FULL = "full"


class Label(str):
    pass


class Count(int):
    pass


def test_plain_values() -> None:
    assert digest("牌") == sha(b"s1:" + "牌".encode())
    assert digest(None) == sha(b"NoneType:None;")
    assert digest(True) == sha(b"bool:True;")
    assert digest(3) == sha(b"int:3;")
    assert digest(0.5) == sha(b"float:0.5;")
    assert digest(b"\x00") == sha(b"b:" + hashlib.sha256(b"\x00").digest())
    assert digest(Ink.FULL) == sha(b"e:Ink.FULL;")
    assert digest(PurePosixPath("a/b.svg")) == sha(b"s7:a/b.svg")


def test_containers_and_dataclasses() -> None:
    assert digest(["a", 1]) == digest(("a", 1)) == sha(b"l[s1:aint:1;]")
    assert digest({"k": [2]}) == sha(b"m{s1:kl[int:2;]}")
    assert digest(Spot("x", (1.0, 2.5))) == sha(b"d:Spot(name=s1:xsize=l[float:1.0;float:2.5;])")
    assert digest(Spot("x", (1.0, 2.5), "other.yaml:9", "other.yaml:10")) == digest(Spot("x", (1.0, 2.5)))
    assert digest({"b", "a"}) == sha(b"f{" + b"".join(sorted(bytes.fromhex(digest(x)) for x in "ab")) + b"}")


def test_subclasses_are_fed_as_their_base_kind() -> None:
    assert digest(Label("ab")) == digest("ab")
    assert digest(Count(4)) == sha(b"Count:4;")  # its own type's name, as an int
    assert digest(True) != digest(1)


def test_anything_else_is_uncacheable() -> None:
    with pytest.raises(Uncacheable):
        digest(object())
    with pytest.raises(Uncacheable):
        digest([Spot, 1])  # a dataclass type is not a value
