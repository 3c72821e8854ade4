"""The database row of a game code is a stored code (docs/glossary.md): the model `Deal` becomes
`StoredCode` and the foreign keys named `deal` become `stored_code`, so that "deal" means only the
cards as dealt. Table, columns and the result index are renamed with them."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0008_secret_code_flags"), ("leaderboard", "0010_results_rooms_moved")]

    operations = [
        migrations.RenameModel("Deal", "StoredCode"),
        migrations.RenameField("daily", "deal", "stored_code"),
        migrations.RenameField("gamesession", "deal", "stored_code"),
        migrations.RenameField("result", "deal", "stored_code"),
        # RenameField leaves an index's field list as it was: the state gets the index anew, the
        # database keeps the index and only renames it.
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RenameIndex("result", new_name="result_stored_code", old_name="result_deal"),
            ],
            state_operations=[
                migrations.RemoveIndex("result", "result_deal"),
                migrations.AddIndex("result", models.Index(fields=["stored_code"], name="result_stored_code")),
            ],
        ),
    ]
