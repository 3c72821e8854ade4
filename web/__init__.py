"""The web service's shared machinery, used by every app; it imports none (tests/foundation/test_layout.py)."""
