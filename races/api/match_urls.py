from django.urls import path

from races.api import match_views

urlpatterns = [
    path("match", match_views.QueueView.as_view(), name="quick-match"),
    path("challenges", match_views.ChallengesView.as_view(), name="challenges"),
    path("challenges/<str:challenge_id>/accept", match_views.AcceptView.as_view(), name="challenge-accept"),
    path("challenges/<str:challenge_id>/decline", match_views.DeclineView.as_view(), name="challenge-decline"),
]
