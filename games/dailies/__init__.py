"""Daily challenges: their schedule, their preparation and the closer's lock, and fair play on them (blind choices)."""
