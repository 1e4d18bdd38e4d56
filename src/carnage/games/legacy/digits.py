"""Deterministic "dice" for our Legacy generator: a stream of numbers from MD5 digests.

The same key gives the same numbers on any machine and any Python: only ``hashlib.md5`` of
UTF-8 text, never ``hash()`` or a ``random`` seeded by a string. A stream's key is its parts
joined by a separator; its bytes are the digests of ``key + block number``, block after block.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

SEP = "\x1f"


class LegacyError(ValueError):
    """Bad input to the Legacy generator, mutations or ratings (a one-line message)."""


def normalise_name(name: str) -> str:
    """The name as the generator hashes it: Unicode NFKC, whitespace runs to one space,
    trimmed, case-folded (so "Rust  Bucket" and "rust bucket" are one vehicle; GL-012)."""
    text = " ".join(unicodedata.normalize("NFKC", name).split()).casefold()
    if not text:
        raise LegacyError("a Legacy vehicle needs a name (try 'carnage legacy name')")
    return text


def display_name(name: str) -> str:
    """The name as written on the dashboard: trimmed, whitespace runs to one space."""
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    if not text:
        raise LegacyError("a Legacy vehicle needs a name (try 'carnage legacy name')")
    return text


class Digits:
    """Numbers drawn from the MD5 stream of ``parts``."""

    def __init__(self, *parts: str) -> None:
        self.key = SEP.join(parts)
        self._block = 0
        self._buf = b""
        self._pos = 0

    def _byte(self) -> int:
        if self._pos >= len(self._buf):
            data = f"{self.key}{SEP}{self._block}".encode()
            self._buf = hashlib.md5(data, usedforsecurity=False).digest()
            self._block += 1
            self._pos = 0
        b = self._buf[self._pos]
        self._pos += 1
        return b

    def below(self, n: int) -> int:
        """A number 0..n-1 (two bytes, modulo n)."""
        if not 0 < n <= 65536:
            raise ValueError(f"cannot draw below {n}")
        return ((self._byte() << 8) | self._byte()) % n

    def pick(self, seq: Sequence[T]) -> T:
        """One entry of ``seq`` (not empty)."""
        if not seq:
            raise ValueError("nothing to pick from")
        return seq[self.below(len(seq))]

    def d6(self) -> int:
        return self.below(6) + 1
