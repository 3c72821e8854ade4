"""Who plays: a player's name rules, the request's signed-in player, and the guest a first game makes.
Sign-up, log-in and tokens are the accounts app's (it imports these; the referee never imports it)."""
