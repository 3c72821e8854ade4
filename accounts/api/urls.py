from django.urls import path

from accounts.api import views

urlpatterns = [
    path("auth/signup", views.SignUpView.as_view(), name="signup"),
    path("auth/login", views.LogInView.as_view(), name="login"),
    path("auth/logout", views.LogOutView.as_view(), name="logout"),
    path("auth/me", views.MeView.as_view(), name="me"),
    path("auth/tokens", views.TokensView.as_view(), name="tokens"),
    path("auth/tokens/<str:token_id>", views.TokenView.as_view(), name="token"),
]
