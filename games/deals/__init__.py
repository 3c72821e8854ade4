"""What is dealt: game codes, the codes still secret, and the games and variants a player can choose."""
