"""Errors the harness reports to a user: one line, saying what, where and what to do."""


class LadderError(Exception):
    """Base of every error the command line prints as one line and exits 2 on."""


class SpecError(LadderError):
    """A gate.yaml (or expect.yaml) that does not describe a valid phase."""

    def __init__(self, path, key, message):
        self.path, self.key = str(path), key
        where = f"{self.path}: {key}" if key else self.path
        super().__init__(f"{where}: {message}")


class ToolMissing(LadderError):
    """A program the harness needs (nvcc, cuobjdump, ...) is not installed."""
