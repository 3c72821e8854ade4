"""Statistics add up their wins' moves and times (for the averages a player page shows) and keep
their streaks of wins. Statistics kept so far are given them from the results that count (none that
fair play holds or voided), in the order they were verified."""

from django.db import migrations, models
from django.db.models import OuterRef, Q, Subquery


def count_wins(apps, schema_editor):  # type: ignore[no-untyped-def]
    PlayerStats = apps.get_model("leaderboard", "PlayerStats")
    Result = apps.get_model("games", "Result")
    Decision = apps.get_model("games", "FairPlayDecision")
    latest = Decision.objects.filter(review=OuterRef("fair_play")).order_by("-decided_at", "-id")
    held = Q(fair_play__isnull=False) & ~Q(fair_play__reasons=[]) & (Q(verdict__isnull=True) | Q(verdict="void"))
    counted = Result.objects.annotate(verdict=Subquery(latest.values("verdict")[:1])).exclude(held)
    rows = counted.order_by("verified_at", "pk").values_list(
        "player_id", "stored_code__variant", "won", "moves", "elapsed_ms"
    )
    totals: dict[tuple[int, str], dict[str, int]] = {}
    for player_id, variant, won, moves, elapsed_ms in rows.iterator():
        kept = totals.setdefault(
            (player_id, variant),
            {"win_moves": 0, "timed_wins": 0, "win_ms": 0, "win_streak": 0, "best_win_streak": 0},
        )
        if not won:
            kept["win_streak"] = 0
            continue
        kept["win_moves"] += moves
        if elapsed_ms is not None:
            kept["timed_wins"] += 1
            kept["win_ms"] += elapsed_ms
        kept["win_streak"] += 1
        kept["best_win_streak"] = max(kept["best_win_streak"], kept["win_streak"])
    for (player_id, variant), values in totals.items():
        PlayerStats.objects.filter(player_id=player_id, variant=variant).update(**values)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0014_hints'),
        ('leaderboard', '0011_player_index_covered'),
    ]

    operations = [
        migrations.AddField(
            model_name='playerstats',
            name='best_win_streak',
            field=models.PositiveIntegerField(db_default=0, default=0),
        ),
        migrations.AddField(
            model_name='playerstats',
            name='timed_wins',
            field=models.PositiveIntegerField(db_default=0, default=0),
        ),
        migrations.AddField(
            model_name='playerstats',
            name='win_moves',
            field=models.PositiveBigIntegerField(db_default=0, default=0),
        ),
        migrations.AddField(
            model_name='playerstats',
            name='win_ms',
            field=models.PositiveBigIntegerField(db_default=0, default=0),
        ),
        migrations.AddField(
            model_name='playerstats',
            name='win_streak',
            field=models.PositiveIntegerField(db_default=0, default=0),
        ),
        migrations.RunPython(count_wins, migrations.RunPython.noop),
    ]
