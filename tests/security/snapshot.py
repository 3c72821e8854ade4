"""Every stored row of the service, to assert that a refusal changes nothing."""

from __future__ import annotations

from typing import Any

from django.apps import apps

APPS = ("games", "leaderboard", "races", "authtoken")


def snapshot() -> dict[str, list[dict[str, Any]]]:
    tables: dict[str, list[dict[str, Any]]] = {}
    for label in APPS:
        for model in apps.get_app_config(label).get_models():
            tables[model._meta.label] = list(model.objects.order_by("pk").values())
    return tables
