"""PostgreSQL: Django's backend with a cheaper pool check (postgres, the ENGINE) and the hot
statements run prepared (prepared), and an event loop's writes committed in groups (group_commit)."""
