from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script as a file, and its page keeps its styles in one:
    # the CSP allows no inline script or style.
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="frontend/api_docs.html"),
        name="api-docs",
    ),
    path("api/", include("games.api.urls")),
    path("api/", include("accounts.api.urls")),
    path("api/", include("leaderboard.api.urls")),
    path("api/", include("races.api.rating_urls")),
    path("api/", include("races.api.match_urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("frontend.urls")),
]

handler500 = "web.views.server_error"
