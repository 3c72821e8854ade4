"""The random numbers of the deal procedure (docs/codes.md): SplitMix64 for a short code, a SHA-256
counter stream for a long one."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


def splitmix64(seed: int) -> Iterator[int]:
    """The endless stream of 64-bit outputs of SplitMix64 seeded with ``seed``."""
    state = seed & MASK64
    while True:
        state = (state + GOLDEN_GAMMA) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def sha256_stream(number: int) -> Iterator[int]:
    """The endless stream of 64-bit words of a long code's deal ``number``: block k is SHA-256 of
    ``number`` (12 bytes) and ``k`` (4 bytes), both big-endian, read as four big-endian words."""
    prefix = number.to_bytes(12, "big")
    block = 0
    while True:
        digest = hashlib.sha256(prefix + block.to_bytes(4, "big")).digest()
        for at in range(0, 32, 8):
            yield int.from_bytes(digest[at : at + 8], "big")
        block += 1
