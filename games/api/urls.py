from django.urls import path

from games.api import rooms, views

urlpatterns = [
    path("sessions", views.SessionsView.as_view(), name="sessions"),
    path("sessions/<str:session_id>", views.SessionView.as_view(), name="session"),
    path("sessions/<str:session_id>/actions", views.ActionsView.as_view(), name="session-actions"),
    path("sessions/<str:session_id>/why", views.WhyView.as_view(), name="session-why"),
    path("sessions/<str:session_id>/finish", views.FinishView.as_view(), name="session-finish"),
    path("sessions/<str:session_id>/hint", views.HintView.as_view(), name="session-hint"),
    path("sessions/<str:session_id>/play-out", views.PlayOutView.as_view(), name="session-play-out"),
    path("submissions", views.SubmissionsView.as_view(), name="submissions"),
    path("daily", views.DailyView.as_view(), name="daily"),
    path("variants", views.VariantsView.as_view(), name="variants"),
    path("rooms", rooms.RoomsView.as_view(), name="rooms"),
    path("rooms/<str:room_id>", rooms.RoomView.as_view(), name="room"),
    path("rooms/<str:room_id>/join", rooms.JoinRoomView.as_view(), name="room-join"),
    path("rooms/<str:room_id>/start", rooms.StartRoomView.as_view(), name="room-start"),
    path("rooms/<str:room_id>/end", rooms.EndRoomView.as_view(), name="room-end"),
]
