"""Seeded games played in worker processes: chunks of work mapped over a pool of forked
processes, results handed back in chunk order (``carnage tourney --backend local`` and the
simulation tests share this pool)."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import TypeVar

C = TypeVar("C")
R = TypeVar("R")


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
