"""The database row of a game code is a stored code (docs/glossary.md): the model `Deal` becomes
`StoredCode` and the foreign keys named `deal` become `stored_code`, so that "deal" means only the
cards as dealt. The table and the columns are renamed with them.

The result's own index on the code went first: the foreign key's index already serves every
look-up by code, so that one only cost a write per result (and, left in place, it would name a
field the rename removes, which SQLite's table rebuild cannot follow)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("games", "0008_secret_code_flags"), ("leaderboard", "0010_results_rooms_moved")]

    operations = [
        migrations.RemoveIndex("result", "result_deal"),
        migrations.RenameModel("Deal", "StoredCode"),
        migrations.RenameField("daily", "deal", "stored_code"),
        migrations.RenameField("gamesession", "deal", "stored_code"),
        migrations.RenameField("result", "deal", "stored_code"),
    ]
