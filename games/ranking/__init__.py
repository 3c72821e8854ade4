"""What the referee knows of ranking: board ids, the ranking keys (a race room orders its racers by them), and the
slot through which it asks the leaderboard for a rank (docs/ranking.md, "Where ranking lives")."""
