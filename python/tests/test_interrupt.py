"""Ctrl-C and progress bars: SIGINT a second into a call of several seconds raises
KeyboardInterrupt within 0.5 s of the signal, and the graph then counts as before;
``progress=True`` draws tqdm bars from the library's progress callback (a fake
tqdm here), ``progress=False`` none, and without tqdm there is no bar and no
error."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
import types
from typing import Any

import pytest

import warpmatch
from warpmatch import _errors


def _sigint_after(seconds: float, sent: list[float]) -> threading.Timer:
    def fire() -> None:
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(seconds, fire)
    timer.start()
    return timer


def _interrupt(call: Any) -> float:
    """Seconds from the SIGINT (1 s into ``call()``) to its KeyboardInterrupt."""
    sent: list[float] = []
    started = time.monotonic()
    timer = _sigint_after(1.0, sent)
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
        raised = time.monotonic()
    finally:
        timer.cancel()
    assert sent, f"the call ended after {raised - started:.2f} s, before the signal"
    return raised - sent[0]


def _long(call: Any, least: float, first: int, last: int) -> tuple[Any, int]:
    """The smallest Kronecker graph from scale ``first`` on which ``call`` takes ``least``
    seconds (the machine's cores decide which), and its scale."""
    for scale in range(first, last + 1):
        g = warpmatch.generate("kron", scale=scale)
        started = time.monotonic()
        call(g)
        if time.monotonic() - started >= least:
            return g, scale
    pytest.fail(f"no Kronecker graph of scales {first}-{last} keeps the call {least} s")


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="SIGINT reaches the main thread")
@pytest.mark.parametrize(
    "what, scale, call",
    [
        # the first scales take about 10 s and 5 s on 2 cores; more cores go further
        ("house count", 12, lambda g: g.count("house", method="enumerate", device="cpu", progress=False)),
        ("5-vertex motifs", 13, lambda g: g.motifs(5, device="cpu", progress=False)),
    ],
)
def test_sigint_stops_a_long_call(what: str, scale: int, call: Any) -> None:
    g, scale = _long(call, 2.5, scale, scale + 4)
    latency = _interrupt(lambda: call(g))
    print(f"{what}: KeyboardInterrupt {latency * 1e3:.2f} ms after SIGINT")
    assert latency < 0.5, f"{what}: KeyboardInterrupt {latency:.2f} s after SIGINT"
    # the same graph and context go on: the same counts as a fresh graph's
    fresh = warpmatch.generate("kron", scale=scale)
    assert g.count("4-cycle", device="cpu") == fresh.count("4-cycle", device="cpu")
    assert g.motifs(4, device="cpu") == fresh.motifs(4, device="cpu")


def _long_on_gpu(call: Any, least: float) -> tuple[Any, Any]:
    """The smallest Kronecker graph on which ``call`` takes ``least`` seconds, and its answer."""
    for scale in range(14, 25):
        g = warpmatch.generate("kron", scale=scale)
        call(g)  # the first call also uploads the graph: the interrupted one runs warm
        started = time.monotonic()
        answer = call(g)
        if time.monotonic() - started >= least:
            return g, answer
    pytest.fail(f"no Kronecker graph up to scale 24 keeps the call {least} s")


@pytest.mark.skipif(not warpmatch.gpu_available(), reason="no usable GPU (or a build without CUDA)")
@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="SIGINT reaches the main thread")
@pytest.mark.parametrize(
    "what, call",
    [
        ("house count (stack kernel)", lambda g: g.count("house", method="enumerate", device="gpu", progress=False)),
        ("5-vertex motifs", lambda g: g.motifs(5, device="gpu", progress=False)),
    ],
)
def test_sigint_stops_a_long_gpu_call(what: str, call: Any) -> None:
    """device="gpu": the kernels poll the interrupt, so Ctrl-C stops them as fast as the CPU's loops."""
    g, expected = _long_on_gpu(call, 2.5)
    latency = _interrupt(lambda: call(g))
    print(f"{what} on the GPU: KeyboardInterrupt {latency * 1e3:.2f} ms after SIGINT")
    assert latency < 0.5, f"{what}: KeyboardInterrupt {latency:.2f} s after SIGINT"
    assert call(g) == expected, "the call after the interrupt answers otherwise"


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="SIGINT reaches the main thread")
def test_sigint_reaches_the_programs_own_handler() -> None:
    """A handler of the program's own hears the Ctrl-C once the call has given up (the
    library catches it only during the call), and the call raises Interrupted."""
    call = lambda g: g.count("house", method="enumerate", device="cpu", progress=False)  # noqa: E731
    g, _ = _long(call, 2.5, 12, 16)
    heard: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda sig, frame: heard.append(sig))
    try:
        latency = _interrupt(lambda: call(g))
    finally:
        signal.signal(signal.SIGINT, previous)
    assert heard == [signal.SIGINT]
    assert latency < 0.5, f"Interrupted {latency:.2f} s after SIGINT"
    assert call(g) == g.count("house", method="enumerate", device="cpu", progress=False)


def test_interrupted_code_is_a_keyboard_interrupt() -> None:
    e = _errors.from_code(4, "warpmatch_count: matching: interrupted (warpmatch_interrupt)")
    assert isinstance(e, warpmatch.Interrupted)
    assert isinstance(e, KeyboardInterrupt) and isinstance(e, warpmatch.Error)
    assert e.code == 4 and str(e) == "matching: interrupted (warpmatch_interrupt)"


class _FakeBar:
    made: list[_FakeBar] = []

    def __init__(self, total: int | None = None, desc: str = "", leave: bool = True) -> None:
        self.total, self.desc, self.n, self.seen, self.closed = total, desc, 0, [], False
        _FakeBar.made.append(self)

    def update(self, k: int) -> None:
        self.n += k
        self.seen.append(self.n)

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def fake_tqdm(monkeypatch: pytest.MonkeyPatch) -> list[_FakeBar]:
    _FakeBar.made = []
    auto = types.ModuleType("tqdm.auto")
    auto.tqdm = _FakeBar  # type: ignore[attr-defined]
    package = types.ModuleType("tqdm")
    package.auto = auto  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tqdm", package)
    monkeypatch.setitem(sys.modules, "tqdm.auto", auto)
    return _FakeBar.made


def test_progress_bar_follows_the_count(fake_tqdm: list[_FakeBar]) -> None:
    g = warpmatch.generate("kron", scale=10)
    expected = g.count("4-cycle", method="enumerate", device="cpu", progress=False)
    assert not fake_tqdm
    assert g.count("4-cycle", method="enumerate", device="cpu", progress=True) == expected
    # where the count pays for it, the planner times candidate orders first (the hubs' sample
    # and the rest of each slice), then counts the hubs' other arcs and the rest: a bar each
    descs = [b.desc for b in fake_tqdm]
    assert descs[-1] == "counting", descs
    assert all(d.startswith("timing order") or d == "counting hubs" for d in descs[:-1]), descs
    bar = fake_tqdm[-1]
    assert bar.total and bar.seen, "no update reached the bar"
    assert bar.seen == sorted(bar.seen), f"the bar went back: {bar.seen}"
    assert bar.n == bar.total and bar.closed


def test_progress_auto_is_off_without_a_terminal(fake_tqdm: list[_FakeBar], monkeypatch: pytest.MonkeyPatch) -> None:
    """Auto: no bar where stderr is a file, unless WM_PROGRESS=1 (as for the program)."""
    monkeypatch.delenv("WM_PROGRESS", raising=False)
    with open(os.devnull, "w") as devnull:
        monkeypatch.setattr(sys, "stderr", devnull)
        g = warpmatch.generate("kron", scale=9)
        g.count("4-cycle", method="enumerate", device="cpu")
        assert not fake_tqdm
        monkeypatch.setenv("WM_PROGRESS", "1")
        g.count("4-cycle", method="enumerate", device="cpu")
        assert [b.desc for b in fake_tqdm if not b.desc.startswith("timing order")] in (
            ["counting"],
            ["counting hubs", "counting"],
        )


def test_progress_without_tqdm_is_no_bar_and_no_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    with pytest.raises(ImportError):
        import tqdm.auto  # noqa: F401
    g = warpmatch.generate("kron", scale=9)
    assert g.count("triangle", progress=True) == g.count("triangle", progress=False)
