"""SplitMix64, the random numbers of the deal procedure (SPEC section 3)."""

from __future__ import annotations

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
