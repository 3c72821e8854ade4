"""Race rooms: their lifecycle and document, and their progress pushed to the room."""
