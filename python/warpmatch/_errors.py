"""Exceptions: one class per C error code, each carrying the library's message.

Each is also the builtin a Python user would catch: bad input and unusable
arguments are ValueErrors, a missing file a FileNotFoundError, a device
failure a RuntimeError; a value of the wrong type raises TypeError itself.
"""

from __future__ import annotations

import errno
import re

from . import _lib


class Error(Exception):
    """A failed warpmatch call.

    ``message`` is the library's own text (for input files: the file, the line
    and what was expected) and ``code`` the C error code (1 input, 2 usage,
    3 device, 4 interrupted), the same numbers the command line exits with.
    """

    code: int = 0

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        return self.message


class InputError(Error, ValueError):
    """Bad input: a graph file, an edge array, a pattern, labels."""

    code = _lib.EINPUT


class MissingFileError(InputError, FileNotFoundError):
    """A graph, pattern or labels file that does not exist (``filename`` names it)."""

    def __init__(self, message: str, filename: str | None = None) -> None:
        super().__init__(message)
        # OSError's fields, as open() would set them.
        self.errno = errno.ENOENT
        self.strerror = "No such file or directory"
        self.filename = filename


class UsageError(Error, ValueError):
    """A call or option that cannot be honoured: a vertex index outside the graph, an unknown
    device, a directed graph where an undirected one is needed."""

    code = _lib.EUSAGE


class DeviceError(Error, RuntimeError):
    """No usable GPU where one was required, or a CUDA failure."""

    code = _lib.EDEVICE


class Interrupted(Error, KeyboardInterrupt):
    """A call stopped by the library's interrupt flag: a KeyboardInterrupt too, as Ctrl-C
    during a call raises (the graph stays usable)."""

    code = _lib.EINTERRUPTED


_BY_CODE: dict[int, type[Error]] = {
    _lib.EINPUT: InputError,
    _lib.EUSAGE: UsageError,
    _lib.EDEVICE: DeviceError,
    _lib.EINTERRUPTED: Interrupted,
}

# "warpmatch_bfs: ...": the C function that failed, which a Python caller never called.
_C_CALLER = re.compile(r"^warpmatch_\w+: ")
# The graph reader's and the pattern reader's words for a file that is not there.
_MISSING = re.compile(
    r"^(?:(?P<file>.*): cannot open|cannot open pattern file '(?P<pattern>.*)'): No such file or directory$"
)


def pythonic(code: int, message: str) -> str:
    """The library's message in Python's words: no C function names or C constants."""
    message = _C_CALLER.sub("", message)
    if code == _lib.EDEVICE and "no usable CUDA device" in message:
        return "no usable GPU on this machine; use device='cpu' or 'auto'"
    return message


def from_code(code: int, message: str) -> Error:
    """The exception for C error ``code`` with ``message`` (an unknown code gives ``Error``)."""
    message = pythonic(code, message) or f"warpmatch error {code}"
    cls = _BY_CODE.get(code)
    if cls is None:
        return Error(message, code)
    missing = _MISSING.match(message) if cls is InputError else None
    if missing:
        return MissingFileError(message, missing.group("file") or missing.group("pattern"))
    return cls(message)
