from django.urls import path

from races.api import rating_views

urlpatterns = [
    path("ratings/<str:game>", rating_views.RatingBoardView.as_view(), name="rating-board"),
    path("rooms/<str:room_id>/rematch", rating_views.RematchView.as_view(), name="room-rematch"),
    path("rooms/<str:room_id>/review", rating_views.ReviewView.as_view(), name="room-review"),
    path("rooms/<str:room_id>/review/line", rating_views.ReviewLineView.as_view(), name="room-review-line"),
]
