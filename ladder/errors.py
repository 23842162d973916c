"""Errors the harness reports to a user: one line, saying what, where and what to do."""


class LadderError(Exception):
    """Base of every error the command line prints as one line and exits 2 on."""


def one_line(text):
    """Escapes what would break a one-line message (a YAML key may hold a newline)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class SpecError(LadderError):
    """A gate.yaml (or expect.yaml) that does not describe a valid phase."""

    def __init__(self, path, key, message):
        self.path, self.key = str(path), key
        where = f"{self.path}: {key}" if key else self.path
        super().__init__(one_line(f"{where}: {message}"))


class ToolMissing(LadderError):
    """A program the harness needs (nvcc, cuobjdump, ...) is not installed."""
