"""kit.background: the loop primitive (wake, back-off on errors, stop) and wake-ups that fire
only after a commit."""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest

from agora.kit import background
from agora.kit.background import Loop
from agora.kit.db import Database
from agora.kit.logging import configure_logging


@pytest.fixture(autouse=True)
def _logging_to_this_tests_stderr() -> None:
    """Another test may have bound the logger to a captured stream that is closed by now."""
    configure_logging("WARNING")


async def _until(condition: object, within: float = 5.0) -> None:
    deadline = time.monotonic() + within
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "condition not reached in time"
        await asyncio.sleep(0.01)


async def test_a_wake_up_ends_the_wait_at_once() -> None:
    calls: list[float] = []

    async def step() -> float:
        calls.append(time.monotonic())
        return 60.0  # would sleep a minute without a wake-up

    loop = Loop("test-wake", step, topics=("test_topic",))
    await loop.start()
    try:
        await _until(lambda: len(calls) == 1)
        background.wake("test_topic")
        await _until(lambda: len(calls) == 2, within=1.0)
        loop.wake()
        await _until(lambda: len(calls) == 3, within=1.0)
        assert loop.readiness() == (True, "ok")
    finally:
        await loop.stop()
    assert loop.readiness() == (False, "not running")
    background.wake("test_topic")  # unsubscribed: nothing happens, nothing breaks
    await asyncio.sleep(0.05)
    assert len(calls) == 3


async def test_a_failing_step_is_reported_and_retried() -> None:
    outcomes = iter([RuntimeError("boom"), 0.5])

    async def step() -> float:
        outcome = next(outcomes, 60.0)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    loop = Loop("test-errors", step, error_delay=0.05)
    await loop.start()
    try:
        await _until(lambda: loop.rounds >= 1)
        await _until(lambda: loop.rounds >= 2)  # retried after error_delay, not ended
        assert loop.readiness() == (True, "ok")
    finally:
        await loop.stop()


async def test_unhealthy_while_failing() -> None:
    async def step() -> float:
        raise ValueError("always")

    loop = Loop("test-unhealthy", step, error_delay=60.0)
    await loop.start()
    try:
        await _until(lambda: loop.rounds >= 1)
        assert loop.readiness() == (False, "error: ValueError")
    finally:
        await loop.stop()


async def test_delays_are_clamped() -> None:
    async def step() -> float:
        return 3600.0

    loop = Loop("test-clamp", step, max_delay=0.02)
    await loop.start()
    try:
        await _until(lambda: loop.rounds >= 3, within=2.0)
    finally:
        await loop.stop()


async def test_stopping_lets_the_round_in_progress_finish() -> None:
    """A stopping worker does not cut its round (and its transaction) short: the round ends,
    then the loop, and no further round begins."""
    events: list[str] = []

    async def step() -> float:
        events.append("began")
        await asyncio.sleep(0.2)
        events.append("ended")
        return 0.0  # more work: only the stop ends the loop

    loop = Loop("test-graceful", step)
    await loop.start()
    await _until(lambda: events == ["began"])
    await loop.stop()
    assert events == ["began", "ended"]
    assert loop.readiness() == (False, "not running")


async def test_a_stopped_loop_starts_again() -> None:
    calls: list[int] = []

    async def step() -> float:
        calls.append(1)
        return 60.0

    loop = Loop("test-restart", step)
    for expected in (1, 2):
        await loop.start()
        await _until(lambda: len(calls) == expected)  # noqa: B023 (awaited in this iteration)
        await loop.stop()
        assert loop.readiness() == (False, "not running")


async def test_a_round_that_never_unwinds_does_not_hold_the_stop(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Past its grace a round is cancelled; one whose unwinding waits for ever (as a cancelled
    SQLite connection's close can, wapiti-scanner/wapiti#802) is logged and left, so the process
    still stops."""
    monkeypatch.setattr(background, "CANCEL_WAIT_SECONDS", 0.2)
    never = asyncio.get_running_loop().create_future()
    entered = asyncio.Event()

    async def step() -> float:
        entered.set()
        try:
            await asyncio.sleep(60)
        finally:
            await never  # the cancellation's clean-up never finishes
        return 0.0

    loop = Loop("test-stuck", step)
    await loop.start()
    await asyncio.wait_for(entered.wait(), 5)
    task = loop._task
    started = time.monotonic()
    await loop.stop(grace=0.1)
    assert time.monotonic() - started < 2.0
    assert loop.readiness() == (False, "not running")
    assert task is not None and not task.done()  # left to the event loop's final cancellation
    assert "background_stop_abandoned" in capsys.readouterr().err
    task.cancel()  # what asyncio.run does at exit: the clean-up's own wait ends
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def test_stop_all_stops_every_service_even_when_one_fails(
    capsys: pytest.CaptureFixture[str],
) -> None:
    class Broken:
        async def stop(self) -> None:
            raise RuntimeError("cannot stop")

    async def step() -> float:
        return 60.0

    loop = Loop("test-stop-all", step)
    await loop.start()
    await background.stop_all([Broken(), loop])
    assert loop.readiness() == (False, "not running")
    assert "background_stop_failed" in capsys.readouterr().err


@pytest.mark.parametrize("commit", [True, False])
async def test_signal_wakes_only_after_commit(db: Database, commit: bool) -> None:
    woken: list[str] = []
    unsubscribe = background.subscribe("test_signal", lambda: woken.append("x"))
    try:
        with pytest.raises(RuntimeError) if not commit else contextlib.nullcontext():
            async with db.transaction() as session:
                await background.signal(session, "test_signal", across_processes=True)
                await background.signal(session, "test_signal")  # once per transaction
                assert woken == []  # not before the commit
                if not commit:
                    raise RuntimeError("roll back")
        assert woken == (["x"] if commit else [])
    finally:
        unsubscribe()


def test_keyed_wake_ups_reach_only_their_key_and_leave_nothing_behind() -> None:
    woken: list[str] = []
    unsubscribe_a = background.subscribe("test_keyed", lambda: woken.append("a"), key="a")
    unsubscribe_b = background.subscribe("test_keyed", lambda: woken.append("b"), key="b")
    unsubscribe_any = background.subscribe("test_keyed", lambda: woken.append("*"))
    try:
        background.wake("test_keyed", "a")
        assert sorted(woken) == ["*", "a"]
        woken.clear()
        background.wake_all("test_keyed")  # e.g. after a listener reconnected
        assert sorted(woken) == ["*", "a", "b"]
    finally:
        unsubscribe_a()
        unsubscribe_b()
        unsubscribe_any()
    assert ("test_keyed", "a") not in background._subscribers  # keyed entries do not pile up


@pytest.mark.parametrize("commit", [True, False])
async def test_a_listened_signal_arrives_once_after_commit_on_either_backend(
    db: Database, commit: bool
) -> None:
    """PostgreSQL: only through the listener's NOTIFY (none on rollback); SQLite: in-process."""
    from agora.kit.listen import Listener

    woken: list[str] = []
    arrived = asyncio.Event()

    def on_wake() -> None:
        woken.append("k")
        arrived.set()

    unsubscribe = background.subscribe("test_listened", on_wake, key="k")
    listener = None if db.is_sqlite else Listener(db.url, ("test_listened",))
    try:
        if listener is not None:
            await listener.ensure_started()
            deadline = time.monotonic() + 10
            while not listener.listening:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.05)
            woken.clear()  # the wake-up of the (re)connect
            arrived.clear()
        with pytest.raises(RuntimeError) if not commit else contextlib.nullcontext():
            async with db.transaction() as session:
                await background.signal(session, "test_listened", key="k", listened=True)
                await background.signal(session, "test_listened", key="k", listened=True)
                await background.signal(session, "test_listened", key="other", listened=True)
                if not commit:
                    raise RuntimeError("roll back")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(arrived.wait(), timeout=5 if commit else 0.5)
        await asyncio.sleep(0.1)  # a second delivery would show now
        assert woken == (["k"] if commit else [])
    finally:
        unsubscribe()
        if listener is not None:
            await listener.stop()
