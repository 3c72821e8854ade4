"""What a person running the service needs, kept out of the apps and out of config/ (docs/operations.md)."""
