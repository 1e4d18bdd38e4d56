"""Seeded games played in worker processes: chunks of work mapped over a pool of forked
processes, results handed back in chunk order (``carnage tourney --backend local`` and the
simulation tests share this pool)."""

from __future__ import annotations

import gc
import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import TypeVar

C = TypeVar("C")
R = TypeVar("R")

BULK_GEN0 = 10_000
"""Allocations between young-generation collections while games are played in bulk (Python's
default is 700)."""


@contextmanager
def bulk_play() -> Iterator[None]:
    """Garbage collection set for playing many games in a row: what is alive on entry (the
    catalogue, rulesets, distance fields) is frozen out of the collector's passes, and the
    young generation is collected after ``BULK_GEN0`` allocations rather than 700. A game's
    garbage is the same either way (its cycles are still collected, in fewer, larger passes);
    only the time spent looking for it drops. The settings are put back on exit."""
    old = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(BULK_GEN0, old[1], old[2])
    try:
        yield
    finally:
        gc.set_threshold(*old)
        gc.unfreeze()


def map_chunks(run: Callable[[C], list[R]], chunks: Sequence[C], workers: int = 2,
               on_chunk: Callable[[int, list[R]], None] | None = None) -> list[R]:
    """``run(chunk)`` for every chunk in ``workers`` forked processes (one process: in this
    one); ``on_chunk(i, results)`` as each chunk finishes, in any order. Returns every result
    in chunk order, whatever order the chunks finished in."""
    done: dict[int, list[R]] = {}
    if workers <= 1:
        for i, c in enumerate(chunks):
            done[i] = run(c)
            if on_chunk is not None:
                on_chunk(i, done[i])
    else:
        with ProcessPoolExecutor(max_workers=workers,
                                 mp_context=multiprocessing.get_context("fork")) as pool:
            running: dict[Future[list[R]], int] = {
                pool.submit(run, c): i for i, c in enumerate(chunks)}
            while running:
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for f in finished:
                    i = running.pop(f)
                    done[i] = f.result()
                    if on_chunk is not None:
                        on_chunk(i, done[i])
    return [r for i in range(len(chunks)) for r in done[i]]
