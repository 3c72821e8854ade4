"""A refereed game: how its row is made (starts); in play, its live state, the play loop and its
storage, what its sockets are sent (deltas, pushes), hints and why an action cannot be played."""
