"""Players and their accounts: names, guests, sign-up and log-in, the password checks."""
