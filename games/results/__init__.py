"""Verified results: stored, announced to subscribers, verified by replaying their logs, and
replayed for viewing; batch submissions."""
