"""Accounts: sign-up, log-in, log-out, API tokens and the password checks behind them."""
