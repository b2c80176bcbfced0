"""Signals held back while a file or the stream is put in place (horserace/_signals.py):
inside the block a signal does nothing; after it, the handler in place acts on it, or the
caller reads it; a report file and the stream are in place, whole, and no temporary file
is left, when a signal arrives while they are written."""

from __future__ import annotations

import os
import signal

import pytest

from horserace._files import atomic_write
from horserace._signals import deferred_signals
from horserace.reports.stream import ResultStream, read_stream


def test_a_signal_inside_the_block_acts_after_it():
    reached = []
    with pytest.raises(KeyboardInterrupt), deferred_signals():
        os.kill(os.getpid(), signal.SIGINT)
        reached.append("the rest of the block")
    assert reached == ["the rest of the block"]


def test_the_caller_may_take_the_signal_itself():
    with deferred_signals(reraise=False) as held:
        os.kill(os.getpid(), signal.SIGINT)
    assert held.signum == signal.SIGINT
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # the handler is back


def test_a_signal_while_a_report_is_written_leaves_it_whole(tmp_path, monkeypatch):
    real_replace = os.replace

    def replace_after_a_signal(src, dst):
        os.kill(os.getpid(), signal.SIGINT)  # arrives between the write and the rename
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace_after_a_signal)
    with pytest.raises(KeyboardInterrupt):
        atomic_write(tmp_path / "report.md", "whole\n")
    assert (tmp_path / "report.md").read_text() == "whole\n" and [p.name for p in tmp_path.iterdir()] == ["report.md"]


def test_a_signal_while_the_stream_is_finished_leaves_it_in_place(tmp_path, monkeypatch):
    stream = ResultStream(tmp_path / "results.jsonl", {"fixtures": 0})
    real_fsync = os.fsync

    def fsync_after_a_signal(fd):
        os.kill(os.getpid(), signal.SIGINT)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync_after_a_signal)
    with pytest.raises(KeyboardInterrupt):
        stream.finish({"counts": {}, "conformant": True})
    header, results, footer = read_stream(tmp_path / "results.jsonl")
    assert header["record"] == "header" and results == [] and footer["conformant"]
    assert [p.name for p in tmp_path.iterdir()] == ["results.jsonl"]
