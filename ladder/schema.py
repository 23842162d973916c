"""A small declarative validator for YAML specs: each node checks its value, fills defaults and
names the dotted key of the first thing that is wrong. Errors are raised as (key, message)."""
import re

REQUIRED = object()


class Invalid(Exception):
    def __init__(self, key, message):
        super().__init__(message)
        self.key, self.message = key, message


def _join(base, key):
    if isinstance(key, int):
        return f"{base}[{key}]"
    return f"{base}.{key}" if base else key


class Node:
    def __init__(self, default=REQUIRED, doc=""):
        self.default, self.doc = default, doc

    def validate(self, value, key):
        raise NotImplementedError

    def describe(self):
        raise NotImplementedError


class Bool(Node):
    def validate(self, value, key):
        if not isinstance(value, bool):
            raise Invalid(key, f"expected true or false, got {value!r}")
        return value

    def describe(self):
        return "a boolean"


class Int(Node):
    def __init__(self, default=REQUIRED, min=None, max=None, choices=None, doc=""):
        super().__init__(default, doc)
        self.min, self.max, self.choices = min, max, choices

    def validate(self, value, key):
        if isinstance(value, bool) or not isinstance(value, int):
            raise Invalid(key, f"expected an integer, got {value!r}")
        if self.choices is not None and value not in self.choices:
            raise Invalid(key, f"unsupported value {value!r}; supported: {sorted(self.choices)}")
        if self.min is not None and value < self.min:
            raise Invalid(key, f"must be >= {self.min}, got {value}")
        if self.max is not None and value > self.max:
            raise Invalid(key, f"must be <= {self.max}, got {value}")
        return value

    def describe(self):
        return "an integer"


class Float(Node):
    def __init__(self, default=REQUIRED, min=None, max=None, doc=""):
        super().__init__(default, doc)
        self.min, self.max = min, max

    def validate(self, value, key):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise Invalid(key, f"expected a number, got {value!r}")
        if value != value or value in (float("inf"), float("-inf")):
            raise Invalid(key, f"expected a finite number, got {value!r}")
        if self.min is not None and value < self.min:
            raise Invalid(key, f"must be >= {self.min}, got {value}")
        if self.max is not None and value > self.max:
            raise Invalid(key, f"must be <= {self.max}, got {value}")
        return float(value)

    def describe(self):
        return "a number"


class Str(Node):
    def __init__(self, default=REQUIRED, choices=None, pattern=None, doc=""):
        super().__init__(default, doc)
        self.choices, self.pattern = choices, pattern

    def validate(self, value, key):
        if not isinstance(value, str) or not value:
            raise Invalid(key, f"expected a non-empty string, got {value!r}")
        if self.choices is not None and value not in self.choices:
            raise Invalid(key, f"unsupported value {value!r}; supported: {sorted(self.choices)}")
        if self.pattern is not None and not re.fullmatch(self.pattern, value):
            raise Invalid(key, f"{value!r} does not match {self.pattern}")
        return value

    def describe(self):
        return "a string"


class Scalar(Node):
    """An integer or a string: the value of a preprocessor define."""

    def validate(self, value, key):
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise Invalid(key, f"expected an integer or a string, got {value!r}")
        return value

    def describe(self):
        return "an integer or a string"


class List(Node):
    def __init__(self, item, default=REQUIRED, min_len=0, unique=False, doc=""):
        super().__init__(default, doc)
        self.item, self.min_len, self.unique = item, min_len, unique

    def validate(self, value, key):
        if not isinstance(value, list):
            raise Invalid(key, f"expected a list of {self.item.describe()}, got {value!r}")
        if len(value) < self.min_len:
            raise Invalid(key, f"needs at least {self.min_len} item(s)")
        out = [self.item.validate(v, _join(key, i)) for i, v in enumerate(value)]
        if self.unique:
            seen = set()
            for i, v in enumerate(out):
                if repr(v) in seen:
                    raise Invalid(_join(key, i), f"duplicate entry {v!r}")
                seen.add(repr(v))
        return out

    def describe(self):
        return f"a list of {self.item.describe()}"


class Dict(Node):
    """A mapping with free keys matching `key_pattern` (e.g. preprocessor defines)."""

    def __init__(self, value, key_pattern, default=REQUIRED, doc=""):
        super().__init__(default, doc)
        self.value, self.key_pattern = value, key_pattern

    def validate(self, value, key):
        if not isinstance(value, dict):
            raise Invalid(key, f"expected a mapping, got {value!r}")
        out = {}
        for k, v in value.items():
            if not isinstance(k, str) or not re.fullmatch(self.key_pattern, k):
                raise Invalid(_join(key, str(k)), f"key {k!r} does not match {self.key_pattern}")
            out[k] = self.value.validate(v, _join(key, k))
        return out

    def describe(self):
        return "a mapping"


class Map(Node):
    """A mapping with a fixed set of keys; unknown keys are errors. `post` may check and
    rewrite the whole validated mapping (cross-field rules)."""

    def __init__(self, fields, default=REQUIRED, post=None, doc=""):
        super().__init__(default, doc)
        self.fields, self.post = fields, post

    def validate(self, value, key):
        if value is None:
            value = {}
        if not isinstance(value, dict):
            raise Invalid(key, f"expected a mapping, got {value!r}")
        for k in value:
            if k not in self.fields:
                raise Invalid(_join(key, str(k)),
                              f"unknown key {k!r}; expected one of: {', '.join(self.fields)}")
        out = {}
        for name, node in self.fields.items():
            sub = _join(key, name)
            if name in value:
                out[name] = node.validate(value[name], sub)
            elif node.default is REQUIRED:
                raise Invalid(sub, f"missing; expected {node.describe()}")
            elif isinstance(node, Map) and isinstance(node.default, dict):
                out[name] = node.validate(dict(node.default), sub)
            else:
                out[name] = _copy(node.default)
        return self.post(out, key) if self.post else out

    def describe(self):
        return "a mapping with keys " + ", ".join(self.fields)


def _copy(value):
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value
