"""The client's vocabulary and the shape of its answers.

Enum names follow the one rule of gridstar (core/include/gridstar/types.h),
read from the proto's own descriptors, so no table is kept here:

- printed: the value's name without its prefix, lower case, words joined by
  '-', a trailing PLUS as '+': "jps+", "no-corner-cutting", "flow-field",
  "off-path";
- read: any case, words joined by '-', '_' or ' ', "+" or "_plus", with or
  without the prefix: "jps+", "jps_plus", "JPS_PLUS" and "ALGORITHM_JPS_PLUS"
  are one value. Numbers of the enum are accepted too.

Answers are `Answer`s: the generated message with every enum field given as
its canonical name, every `code` field as a grpc.StatusCode and every nested
message as an Answer; `answer.proto` is the message itself.
"""

import grpc

from gridstar.v1 import gridstar_pb2 as pb

_INT32_MAX = 2**31 - 1
_CODES = {c.value[0]: c for c in grpc.StatusCode}


def _prefix(enum_descriptor):
    out = []
    for c in enum_descriptor.name:
        if c.isupper() and out:
            out.append("_")
        out.append(c.upper())
    return "".join(out) + "_"


def _normalize(text, prefix):
    out = []
    for c in str(text).strip():
        if c == "+":
            out.append("_plus")
        elif c in "- ":
            out.append("_")
        else:
            out.append(c.lower())
    s = "".join(out)
    p = prefix.lower()
    return s[len(p):] if p and s.startswith(p) else s


def canonical(enum_descriptor, number):
    """The canonical name of value `number` ("jps+"); its number as text when
    the enum has no such value."""
    value = enum_descriptor.values_by_number.get(number)
    if value is None:
        return str(number)
    snake = _normalize(value.name, _prefix(enum_descriptor))
    plus = snake.endswith("_plus")
    if plus:
        snake = snake[: -len("_plus")]
    return snake.replace("_", "-") + ("+" if plus else "")


def names():
    """{enum name: {canonical name: number}} for every enum of gridstar.v1
    (UNSPECIFIED values left out): the vocabulary the CLI's `gridstar names`
    prints too."""
    out = {}
    enums = list(pb.DESCRIPTOR.enum_types_by_name.values())
    for message in pb.DESCRIPTOR.message_types_by_name.values():
        enums.extend(message.enum_types)
    for e in enums:
        out[e.name] = {canonical(e, v.number): v.number for v in e.values
                       if not v.name.endswith("_UNSPECIFIED")}
    return out


def enum_value(enum_type, value, name):
    """The number of `value` (a name in any accepted spelling, or a number of
    the enum); None is 0 (the server's default). ValueError naming `name`."""
    if value is None:
        return 0
    descriptor = enum_type.DESCRIPTOR
    if isinstance(value, bool):
        raise TypeError(f"{name}: expected a name, got {value!r}")
    if isinstance(value, int):
        if value not in descriptor.values_by_number:
            raise ValueError(f"{name}: {value} is not a {descriptor.name}")
        return value
    if not isinstance(value, str):
        raise TypeError(f"{name}: expected a name, got {value!r}")
    prefix = _prefix(descriptor)
    typed = _normalize(value, prefix)
    for v in descriptor.values:
        if not v.name.endswith("_UNSPECIFIED") and typed and typed == _normalize(v.name, prefix):
            return v.number
    choices = ", ".join(canonical(descriptor, v.number) for v in descriptor.values
                        if not v.name.endswith("_UNSPECIFIED"))
    raise ValueError(f"{name}: unknown value {value!r} (one of {choices})")


def cell(value, name):
    """A pb.Cell from a Cell or an (x, y) pair of whole numbers in
    [0, 2^31 - 1]. TypeError for anything else (a float is never truncated),
    ValueError out of range; both name the argument."""
    if isinstance(value, pb.Cell):
        return value
    try:
        x, y = value
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected a Cell or an (x, y) pair, got {value!r}") from None
    for axis, v in (("x", x), ("y", y)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"{name}: {axis} must be a whole number, got {v!r}"
                            " (cells are never rounded)")
        if not 0 <= v <= _INT32_MAX:
            raise ValueError(f"{name}: {axis} = {v} is out of range [0, {_INT32_MAX}]")
    return pb.Cell(x=x, y=y)


class Answer:
    """A gridstar.v1 message as the client returns it: attributes as the
    message's fields, with enums as canonical names ("jps+"), `code` fields
    as grpc.StatusCode, nested messages as Answers and repeated messages as
    lists of Answers. `proto` is the message itself; `request_id` is set on
    answers of find_paths_stream."""

    __slots__ = ("proto", "_extra")

    def __init__(self, message, **extra):
        object.__setattr__(self, "proto", message)
        object.__setattr__(self, "_extra", extra)

    def __getattr__(self, attr):
        extra = object.__getattribute__(self, "_extra")
        if attr in extra:
            return extra[attr]
        message = object.__getattribute__(self, "proto")
        field = message.DESCRIPTOR.fields_by_name.get(attr)
        value = getattr(message, attr)
        if field is None:
            return value
        repeated = field.label == field.LABEL_REPEATED
        if field.enum_type is not None:
            if repeated:
                return [canonical(field.enum_type, v) for v in value]
            return canonical(field.enum_type, value)
        if field.message_type is not None:
            if repeated:
                return [Answer(v) for v in value]
            return Answer(value) if message.HasField(attr) else None
        if attr == "code" and field.type == field.TYPE_INT32:
            return _CODES.get(value, value)
        return value

    def __setattr__(self, attr, value):
        raise AttributeError("answers are read-only; change .proto instead")

    def __eq__(self, other):
        return isinstance(other, Answer) and self.proto == other.proto

    def __hash__(self):
        return id(self)

    def __repr__(self):
        return f"Answer({type(self.proto).__name__}: {str(self.proto).strip()[:200]!r})"
