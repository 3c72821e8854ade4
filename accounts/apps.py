from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from accounts import token_auth

        token_auth.connect_signals()  # a revoked token leaves the token cache in every process
