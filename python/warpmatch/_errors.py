"""Exceptions: one class per C error code, each carrying the library's message."""

from __future__ import annotations

from . import _lib


class Error(Exception):
    """A failed warpmatch call.

    ``message`` is the library's own text (for input files: the file, the line
    and what was expected) and ``code`` the C error code (1 input, 2 usage,
    3 device), the same numbers the command line exits with.
    """

    code: int = 0

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class InputError(Error, ValueError):
    """Bad input: a graph file, an edge array, a pattern, labels."""

    code = _lib.EINPUT


class UsageError(Error, ValueError):
    """A call or option that cannot be honoured: a vertex index outside the graph, an unknown device."""

    code = _lib.EUSAGE


class DeviceError(Error, RuntimeError):
    """No usable GPU where one was required, or a CUDA failure."""

    code = _lib.EDEVICE


_BY_CODE: dict[int, type[Error]] = {
    _lib.EINPUT: InputError,
    _lib.EUSAGE: UsageError,
    _lib.EDEVICE: DeviceError,
}


def from_code(code: int, message: str) -> Error:
    """The exception for C error ``code`` with ``message`` (an unknown code gives ``Error``)."""
    cls = _BY_CODE.get(code)
    if cls is None:
        return Error(message or f"warpmatch error {code}", code)
    return cls(message or f"warpmatch error {code}")
