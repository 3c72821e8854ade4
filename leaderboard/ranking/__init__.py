"""The boards' ranks: the writes to the board entries (standings), the Redis rank index, and the same
answers from SQL without Redis (docs/ranking.md, "Where ranking lives")."""
