from django.urls import path

from leaderboard.api import auth

urlpatterns = [
    path("auth/signup", auth.SignUpView.as_view(), name="signup"),
    path("auth/login", auth.LogInView.as_view(), name="login"),
    path("auth/logout", auth.LogOutView.as_view(), name="logout"),
    path("auth/me", auth.MeView.as_view(), name="me"),
]
