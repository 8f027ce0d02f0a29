"""``@record`` makes what ``@dataclass(frozen=True)`` makes: the same equality, hash numbers,
repr text, refusal of assignment and dataclass machinery, and keeps the methods a body defines."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
import typing
from dataclasses import dataclass, field

import pytest

from pnp.core.records import record


@record
class Point:
    x: int
    y: float = 0.0
    note: str = field(default="", compare=False)
    hidden: tuple[int, ...] = field(default=(), repr=False)


@dataclass(frozen=True)
class PointAsDataclass:
    x: int
    y: float = 0.0
    note: str = field(default="", compare=False)
    hidden: tuple[int, ...] = field(default=(), repr=False)


@record
class One:
    value: str


@dataclass(frozen=True)
class OneAsDataclass:
    value: str


@record
class Empty:
    pass


@dataclass(frozen=True)
class EmptyAsDataclass:
    pass


@record
class Labelled(Point):
    label: str = "a"


@record
class Node:
    name: str
    children: list[Node] = field(default_factory=list, hash=False)


def _same_as_dataclass(made: object, stdlib: object) -> None:
    assert repr(made).replace(type(made).__qualname__, "X") == repr(stdlib).replace(type(stdlib).__qualname__, "X")
    assert hash(made) == hash(stdlib)


def test_equality_hash_and_repr_are_the_dataclass_ones() -> None:
    _same_as_dataclass(Point(1, 2.5, "n", (3,)), PointAsDataclass(1, 2.5, "n", (3,)))
    _same_as_dataclass(One("草"), OneAsDataclass("草"))
    _same_as_dataclass(Empty(), EmptyAsDataclass())
    assert repr(Point(1)) == "Point(x=1, y=0.0, note='')"
    assert Point(1, 2.0, "a") == Point(1, 2.0, "b")  # note is not compared
    assert Point(1) != Point(2)
    assert hash(Point(1, 2.0, "a")) == hash(Point(1, 2.0, "b"))
    assert Point(1).__eq__(PointAsDataclass(1)) is NotImplemented  # another class, as dataclass says
    assert Point(1).__eq__((1, 0.0, "", ())) is NotImplemented
    assert len({One("a"), One("a"), One("b")}) == 2


def test_a_subclass_compares_its_own_fields_and_never_equals_its_base() -> None:
    assert Labelled(1, label="a") == Labelled(1, label="a") != Labelled(1, label="b")
    assert Labelled(1) != Point(1)
    assert repr(Labelled(1)) == "Labelled(x=1, y=0.0, note='', label='a')"


def test_assignment_is_refused_and_the_dataclass_machinery_works() -> None:
    point = Point(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        point.x = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del point.x
    assert dataclasses.is_dataclass(point)
    assert [f.name for f in dataclasses.fields(point)] == ["x", "y", "note", "hidden"]
    assert dataclasses.replace(point, y=3.0) == Point(1, 3.0)
    assert dataclasses.asdict(point) == {"x": 1, "y": 0.0, "note": "", "hidden": ()}
    assert pickle.loads(pickle.dumps(Labelled(4, label="z"))) == Labelled(4, label="z")
    assert copy.deepcopy(point) == point
    assert Point.__match_args__ == ("x", "y", "note", "hidden")


def test_a_recursive_value_shows_an_ellipsis_and_unhashed_fields_are_left_out_of_the_hash() -> None:
    root = Node("root")
    root.children.append(root)
    assert repr(root) == "Node(name='root', children=[...])"
    assert hash(Node("a", [Node("b")])) == hash(Node("a"))


def test_methods_the_body_defines_are_kept() -> None:
    @record
    class Own:
        value: int

        def __repr__(self) -> str:
            return "own"

        def __eq__(self, other: object) -> bool:
            return True

        def __hash__(self) -> int:
            return 7

    assert repr(Own(1)) == "own" and Own(1) == Own(2) and hash(Own(1)) == 7

    @record
    class EqOnly:
        value: int

        def __eq__(self, other: object) -> bool:
            return True

    # A body defining __eq__ alone has no hash of its own: the fields' hash, as dataclass does.
    assert hash(EqOnly(3)) == hash((3,)) and EqOnly(1) == EqOnly(2)



@record
class Fresh:
    """Compared, hashed and shown by the test below alone."""

    a: int
    b: str = "x"


class Plain(Fresh):  # not a record: Fresh's methods, its own name in the repr
    pass


def test_each_method_is_compiled_on_its_first_call_and_then_stands_in_its_place() -> None:
    stand_ins = {name: vars(Fresh)[name] for name in ("__eq__", "__hash__", "__repr__")}
    assert Fresh(1) == Fresh(1) and hash(Fresh(1)) == hash((1, "x")) and repr(Fresh(1)) == "Fresh(a=1, b='x')"
    for name, stand_in in stand_ins.items():
        assert vars(Fresh)[name] is not stand_in, name
        assert vars(Fresh)[name].__qualname__ == f"Fresh.{name}"
    assert Fresh(1) != Fresh(2) and hash(Fresh(2)) == hash((2, "x")) and repr(Fresh(2)) == "Fresh(a=2, b='x')"
    assert Plain(3) == Plain(3) != Fresh(3) and repr(Plain(3)) == "Plain(a=3, b='x')"


@record
class Made:
    """Defaults, factories, a field outside ``__init__`` and a keyword-only one."""

    name: str
    size: int = 3
    tags: list[str] = field(default_factory=list)
    derived: str = field(init=False, default="d")
    later: tuple[int, ...] = field(init=False, default_factory=tuple)
    label: str = field(default="x", kw_only=True)
    count: int = field(default_factory=int, kw_only=True)


@dataclass(frozen=True)
class MadeAsDataclass:
    name: str
    size: int = 3
    tags: list[str] = field(default_factory=list)
    derived: str = field(init=False, default="d")
    later: tuple[int, ...] = field(init=False, default_factory=tuple)
    label: str = field(default="x", kw_only=True)
    count: int = field(default_factory=int, kw_only=True)


@record
class Checked:
    letters: str
    upper: str = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "upper", self.letters.upper())


def test_init_takes_the_arguments_dataclass_takes_and_sets_what_it_sets() -> None:
    Made("first")  # compiles __init__, whose signature is then dataclass's
    assert str(inspect.signature(Made)) == str(inspect.signature(MadeAsDataclass))
    for args, kwargs in ((("a",), {}), (("a", 5, ["t"]), {"label": "y", "count": 2}), ((), {"name": "n"})):
        made, stdlib = Made(*args, **kwargs), MadeAsDataclass(*args, **kwargs)
        assert dataclasses.asdict(made) == dataclasses.asdict(stdlib)
    assert Made("a").tags is not Made("a").tags  # a new list from the factory each time
    with pytest.raises(TypeError):
        Made("a", 5, [], "too many")  # type: ignore[misc]
    with pytest.raises(TypeError):
        Made()  # type: ignore[call-arg]
    assert Checked("ab").upper == "AB" and Checked("ab") == Checked("ab")
    assert dataclasses.replace(Made("a", label="q"), size=9) == Made("a", 9, label="q")


def test_a_field_without_a_default_after_one_with_is_refused_as_dataclass_refuses_it() -> None:
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
        @record
        class Wrong:
            a: int = 1
            b: int  # type: ignore[misc]


def test_a_record_extends_a_record_with_fields_of_its_own() -> None:
    @record
    class Base:
        a: int
        b: str = "b"

    @record
    class Extended(Base):
        c: float = 0.5

    assert Extended(1, "x", 2.0) == Extended(1, "x", 2.0) != Extended(1)
    assert repr(Extended(1)).endswith("Extended(a=1, b='b', c=0.5)")
    with pytest.raises(dataclasses.FrozenInstanceError):
        Extended(1).c = 1.0  # type: ignore[misc]


def test_records_and_frozen_dataclasses_extend_each_other() -> None:
    @record
    class Base:
        a: int

    @dataclass(frozen=True)
    class Frozen(Base):
        b: int = 2

    @dataclass(frozen=True)
    class Plain:
        a: int

    @record
    class OnFrozen(Plain):
        b: int = 2

    assert Frozen(1) == Frozen(1) and OnFrozen(1) == OnFrozen(1, 2) != OnFrozen(1, 3)
    assert repr(OnFrozen(1)).endswith("OnFrozen(a=1, b=2)")
    params = Base.__dataclass_params__  # type: ignore[attr-defined]
    assert params.frozen and params.init and params.eq and params.repr
    with pytest.raises(TypeError, match="non-frozen dataclass from a frozen one"):
        @dataclass
        class Thawed(Base):  # as dataclass refuses it for a frozen base
            c: int = 3


def test_a_field_outside_init_with_a_plain_default_is_left_to_the_class_attribute() -> None:
    @record
    class Kinded:
        name: str
        kind: str = field(init=False, default="a")

    class Special(Kinded):
        kind = "p"

    @dataclass(frozen=True)
    class KindedAsDataclass:
        name: str
        kind: str = field(init=False, default="a")

    class SpecialAsDataclass(KindedAsDataclass):
        kind = "p"

    assert Special("x").kind == SpecialAsDataclass("x").kind == "p"
    assert vars(Kinded("x")) == vars(KindedAsDataclass("x")) == {"name": "x"}


def test_a_field_named_self_and_a_body_of_its_own() -> None:
    @record
    class Selfish:
        self: int
        other: int = 0

    assert Selfish(self=1).self == 1 and Selfish(2, 3) == Selfish(2, 3)

    with pytest.raises(TypeError, match="non-default argument"):
        @record
        class Unordered:  # its own __init__ does not excuse the order dataclass requires
            a: int = 1
            b: int  # type: ignore[misc]

            def __init__(self) -> None:
                pass


def test_compiled_methods_live_in_the_records_module_and_the_docstring_shows_the_signature() -> None:
    @record
    class Undocumented:
        size: int
        tags: tuple[str, ...] = ()
        more: list[int] = field(default_factory=list)

    @dataclass(frozen=True)
    class UndocumentedAsDataclass:
        size: int
        tags: tuple[str, ...] = ()
        more: list[int] = field(default_factory=list)

    assert Undocumented.__doc__ == UndocumentedAsDataclass.__doc__.replace("AsDataclass", "")  # type: ignore[union-attr]
    Undocumented(1)
    assert Undocumented.__init__.__module__ == __name__
    assert typing.get_type_hints(Undocumented.__init__) == typing.get_type_hints(UndocumentedAsDataclass.__init__)
