"""Settings, read from the environment.

With nothing set this is the embedded development default: SQLite, the
in-memory channel layer and a local-memory cache, so one command runs the
whole service on a bare machine. DATABASE_URL and REDIS_URL switch to
PostgreSQL (psycopg 3) and Redis. APP_ENV=production refuses to start
without real secrets.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_date, env_float, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

APP_ENV = env_str("APP_ENV", "development")
if APP_ENV not in {"development", "production"}:
    raise ImproperlyConfigured("APP_ENV must be 'development' or 'production'")
PRODUCTION = APP_ENV == "production"

_DEV_SECRET = "dev-insecure-secret-key-only-for-the-embedded-run"
_DEV_DAILY_SECRET = "dev-insecure-daily-secret"

SECRET_KEY = env_str("SECRET_KEY") or ("" if PRODUCTION else _DEV_SECRET)
DAILY_SECRET = env_str("DAILY_SECRET") or ("" if PRODUCTION else _DEV_DAILY_SECRET)
DEBUG = env_bool("DEBUG", default=not PRODUCTION)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [] if PRODUCTION else ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

if PRODUCTION:
    if len(SECRET_KEY) < 32 or SECRET_KEY.startswith("dev-insecure"):
        raise ImproperlyConfigured("In production SECRET_KEY must be set to a random value of 32+ characters")
    if len(DAILY_SECRET) < 16 or DAILY_SECRET.startswith("dev-insecure"):
        raise ImproperlyConfigured("In production DAILY_SECRET must be set to a random value of 16+ characters")
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("In production ALLOWED_HOSTS must name the hosts the service answers to")
    if DEBUG:
        raise ImproperlyConfigured("DEBUG must be off in production")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "leaderboard",
    "games",
    "accounts",
    "races",
    "frontend",
]

MIDDLEWARE = [
    "web.middleware.BodySizeLimitMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "web.middleware.DeviceCookieMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "web.middleware.ApiErrorMiddleware",
    "web.middleware.ServiceErrorMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
AUTH_USER_MODEL = "games.Player"
# The one that checks passwords: the API's log-in and the admin's share its limits
# (accounts/auth_backend.py), and it ends every check itself; a new guest's session names it too, as
# the first listed (games/players/guests.py). Django's own stays listed only to find the player of a
# session made before (a session names the backend that made it), and so are the backend's paths
# before it moved to games.players and then to accounts (they check nothing: the first ends every check).
AUTHENTICATION_BACKENDS = [
    "accounts.auth_backend.LimitedModelBackend",
    "django.contrib.auth.backends.ModelBackend",
    "leaderboard.auth_backend.LimitedModelBackend",
    "games.players.auth_backend.LimitedModelBackend",
]

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# Storage: SQLite unless DATABASE_URL names PostgreSQL.
DATABASE_URL = env_str("DATABASE_URL")
# While PostgreSQL is away a request waits this long for a connection, then answers 503.
DB_POOL_TIMEOUT = env_int("DB_POOL_TIMEOUT", 3)
# The connections of the pool async code uses (web.storage) per process, beside Django's own.
DB_ASYNC_POOL_MAX = env_int("DB_ASYNC_POOL_MAX", 8)
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL)}
    if env_bool("DB_POOL", True) and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # A pool per process: daphne serves each HTTP request on a fresh thread, so kept
        # per-thread connections pile up while new ones cost a PostgreSQL fork each; the pool
        # hands out a live connection (Django has the pool check it, so one broken by a restart
        # is replaced).
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True  # Django has the pool check connections only then
        DATABASES["default"]["OPTIONS"] = {
            "pool": {
                "min_size": env_int("DB_POOL_MIN", 2),
                # The sockets' database threads keep one each; HTTP requests share the rest.
                "max_size": env_int("DB_POOL_MAX", env_int("WS_DB_THREADS", 8) + 12),
                "timeout": DB_POOL_TIMEOUT,
            }
        }
    else:
        # Health checks: a kept connection that broke while PostgreSQL restarted is replaced, not reused.
        DATABASES["default"]["CONN_MAX_AGE"] = env_int("DB_CONN_MAX_AGE", 0)
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env_str("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # The worker and the closer (make run) write to the same file. WAL: a reader never
            # waits for a writer, nor a writer for readers. IMMEDIATE: a transaction that will write
            # takes the write lock when it begins, so it waits for the other (up to `timeout`
            # seconds) instead of failing at its first write with "database is locked".
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL"},
        }
    }
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Channel layer and cache: in-memory unless REDIS_URL names Redis.
REDIS_URL = env_str("REDIS_URL")
if REDIS_URL:
    # The pub/sub layer: a group message is one PUBLISH, which each process hands to its own sockets.
    # Pub/sub channels are shared by every database of a Redis server: the default prefix names the
    # database, so that services on different databases of one server hear only their own.
    _redis_db = REDIS_URL.rsplit("/", 1)[-1] if REDIS_URL.count("/") > 2 else "0"
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": env_str("CHANNEL_PREFIX", f"asgi{_redis_db}.") or "asgi"},
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env_str("CACHE_PREFIX", "sl") or "sl",
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fi", "Suomi"), ("hr", "Hrvatski")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# Development serves static files straight from the apps; production from collectstatic.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", PRODUCTION)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# HTTPS in production: HSTS and the redirect to https. Behind the balancer, which terminates TLS
# and replaces X-Forwarded-Proto (deploy/nginx), that header says how the client came in; a
# worker that clients reach directly must not trust it (TRUST_X_FORWARDED_PROTO=false).
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", PRODUCTION)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 3600 if PRODUCTION else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", PRODUCTION)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", PRODUCTION)
if env_bool("TRUST_X_FORWARDED_PROTO", PRODUCTION):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# The balancers whose X-Forwarded-For (the client's address, which the per-address limits count)
# and X-Forwarded-Proto a worker believes: comma-separated addresses or networks, e.g. 10.0.0.5 or
# 10.0.0.0/24. None by default: a worker reached directly takes each client's own address.
# operations/forwarded.py reads them; `make cluster` and docker-compose.yml name their nginx.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", [])
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError:
        raise ImproperlyConfigured(
            f"TRUSTED_PROXIES: {_proxy!r} is neither an IP address nor a network such as 10.0.0.0/24"
        ) from None

# Content Security Policy: scripts, styles and everything else from this site only, and no inline
# script or style attribute anywhere (the pages' scripts are static ES modules). connect-src
# 'self' covers the site's own ws:// and wss:// sockets.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.token_auth.CachedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["web.parsers.SafeJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "web.api_errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Solitaire League API",
    "DESCRIPTION": (
        "Refereed Spider, Spiderette and Russian Solitaire: sessions, submissions, dailies and leaderboards."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # After the enums' own: every call's 401 and 413, and closed request bodies (games/api/openapi.py).
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "games.api.openapi.postprocess"],
    # Served from this site: the closed network reaches no CDN.
    # Three documents have a "state" of their own choices: each its own enum's name.
    "ENUM_NAME_OVERRIDES": {
        "RoomStateEnum": ["lobby", "racing", "finished"],
        "MatchStateEnum": ["waiting", "placed"],
        "ChallengeStateEnum": ["pending", "accepted", "declined", "expired"],
    },
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Limits (docs/api.md, Rate limits). Each can be raised from the environment, e.g. for a load test on loopback.
MAX_BODY_BYTES = env_int("MAX_BODY_BYTES", 256 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_BODY_BYTES
WS_MAX_FRAME_BYTES = env_int("WS_MAX_FRAME_BYTES", 64 * 1024)
RATE_LOGIN_FAILURES = env_int("RATE_LOGIN_FAILURES", 5)  # per name per 5 minutes; past it tries are slowed
RATE_LOGIN_FAILURES_PER_ADDRESS = env_int("RATE_LOGIN_FAILURES_PER_ADDRESS", 30)  # per address per 5 minutes
LOGIN_SLOWDOWN_SECONDS = env_float("LOGIN_SLOWDOWN_SECONDS", 2)  # a try on a name past its failures answers no sooner
TOKEN_SECONDS = env_int("TOKEN_SECONDS", 30 * 24 * 3600)  # a script's API token lives this long, then logs in anew
# What a play socket calls to hear the token cache's revocations (web.sockets.auth.hear_revocations).
REVOCATIONS_LISTENER = "accounts.token_auth.local_cache"
PASSWORD_CHECKS_AT_ONCE = env_int("PASSWORD_CHECKS_AT_ONCE", 1)  # per process; more log-ins at once wait, then 429
PASSWORD_CHECK_WAIT_SECONDS = env_float("PASSWORD_CHECK_WAIT_SECONDS", 3)  # a log-in's longest wait for a place
RATE_SIGNUPS = env_int("RATE_SIGNUPS", 10)  # per address per hour
RATE_ACTIONS = env_int("RATE_ACTIONS", 30)  # per session per second
RATE_PLAY_OUTS = env_int("RATE_PLAY_OUTS", 10)  # games played out to their win, per player per minute
RATE_SUBMISSIONS = env_int("RATE_SUBMISSIONS", 60)  # per player per minute
RATE_SUBMISSIONS_PER_ADDRESS = env_int("RATE_SUBMISSIONS_PER_ADDRESS", 120)  # per address per minute
RATE_SESSION_STARTS = env_int("RATE_SESSION_STARTS", 30)  # new games per player per minute
RATE_SESSION_STARTS_PER_ADDRESS = env_int("RATE_SESSION_STARTS_PER_ADDRESS", 60)  # per address per minute
RATE_GUESTS = env_int("RATE_GUESTS", 20)  # new guests (a browser's first game) per address per hour
RATE_ROOMS = env_int("RATE_ROOMS", 20)  # new race rooms per player per hour
RATE_ROOMS_PER_ADDRESS = env_int("RATE_ROOMS_PER_ADDRESS", 60)  # new race rooms per address per hour
RACE_COUNTDOWN_SECONDS = env_int("RACE_COUNTDOWN_SECONDS", 3)  # from a race's start to its go
RACE_LIMIT_MINUTES = env_int("RACE_LIMIT_MINUTES", 30)  # from a race's go to its end by time (the closer)
RATE_CHALLENGES = env_int("RATE_CHALLENGES", 10)  # challenges sent per player per 10 minutes
RATE_WS_MESSAGES = env_int("RATE_WS_MESSAGES", 60)  # per socket per second before it is closed
WS_DB_THREADS = env_int("WS_DB_THREADS", 8)  # database threads per process for socket work

# The league's first day: dailies are served from it to today, no earlier (each date asked for stores
# seven dailies and their deals).
DAILIES_START = env_date("DAILIES_START", dt.date(2020, 1, 1))

# Certified dailies (docs/dailies.md): the solver's budget per candidate deal, how many candidates a
# day and variant may try before its last one is used uncertified, and how many days after today
# the closer and `prepare_dailies` prepare ahead.
DAILY_SOLVER_BUDGET_SECONDS = env_float("DAILY_SOLVER_BUDGET_SECONDS", 20.0)
DAILY_CANDIDATE_CAP = env_int("DAILY_CANDIDATE_CAP", 100)
DAILY_PREPARE_DAYS = env_int("DAILY_PREPARE_DAYS", 2)
if DAILY_SOLVER_BUDGET_SECONDS <= 0 or DAILY_CANDIDATE_CAP < 1 or DAILY_PREPARE_DAYS < 0:
    raise ImproperlyConfigured(
        "DAILY_SOLVER_BUDGET_SECONDS must be above 0, DAILY_CANDIDATE_CAP at least 1, DAILY_PREPARE_DAYS 0 or more"
    )

# Fair play on the dailies (docs/dailies.md, "Fair play"): the key of the hash kept of a client's
# address and device cookie (never the address itself), and the lines past which a ranked daily
# result is held for review. Pace: a run of FAIR_PLAY_PACE_ACTIONS actions or more whose median gap
# is under FAIR_PLAY_PACE_MEDIAN_MS, or FAIR_PLAY_PACE_RUN actions in a row each under
# FAIR_PLAY_PACE_RUN_MS; where the lines sit and why is measured in bench/README.md ("Fair play").
# Clairvoyance: a won log that follows the solver's par line in order for at
# least FAIR_PLAY_PAR_SHARE of its tokens. New account: younger than FAIR_PLAY_NEW_ACCOUNT_DAYS with
# fewer than FAIR_PLAY_NEW_ACCOUNT_GAMES finished games, winning within par. Blind luck: at least
# FAIR_PLAY_BLIND_CHOICES choices between face-down cards, luckier than a player who cannot see them
# is but FAIR_PLAY_BLIND_ODDS of the time. Near par (a win in at most FAIR_PLAY_NEAR_PAR times the
# par's moves) is shown beside another signal and holds nothing alone.
FAIR_PLAY_HASH_KEY = env_str("FAIR_PLAY_HASH_KEY") or SECRET_KEY
FAIR_PLAY_DEVICE_COOKIE = "device"
FAIR_PLAY_LINK_ADDRESSES = env_bool("FAIR_PLAY_LINK_ADDRESSES", True)
FAIR_PLAY_PACE_ACTIONS = env_int("FAIR_PLAY_PACE_ACTIONS", 20)
FAIR_PLAY_PACE_MEDIAN_MS = env_int("FAIR_PLAY_PACE_MEDIAN_MS", 250)
FAIR_PLAY_PACE_RUN = env_int("FAIR_PLAY_PACE_RUN", 25)
FAIR_PLAY_PACE_RUN_MS = env_int("FAIR_PLAY_PACE_RUN_MS", 150)
FAIR_PLAY_PAR_SHARE = env_float("FAIR_PLAY_PAR_SHARE", 0.8)
FAIR_PLAY_NEW_ACCOUNT_DAYS = env_int("FAIR_PLAY_NEW_ACCOUNT_DAYS", 2)
FAIR_PLAY_NEW_ACCOUNT_GAMES = env_int("FAIR_PLAY_NEW_ACCOUNT_GAMES", 3)
FAIR_PLAY_NEAR_PAR = env_float("FAIR_PLAY_NEAR_PAR", 1.25)
FAIR_PLAY_BLIND_CHOICES = env_int("FAIR_PLAY_BLIND_CHOICES", 6)
FAIR_PLAY_BLIND_ODDS = env_float("FAIR_PLAY_BLIND_ODDS", 0.001)
# Where a player asks for a review of a decision (shown on the fair-play page).
FAIR_PLAY_CONTACT = env_str("FAIR_PLAY_CONTACT") or "fairplay@league.example"

# Operations (operations/): how long a stopping worker drains; logs as JSON lines (with request ids) or text.
DRAIN_SECONDS = env_int("DRAIN_SECONDS", 10)
LOG_FORMAT = env_str("LOG_FORMAT", "json" if PRODUCTION else "text")
if LOG_FORMAT not in {"json", "text"}:
    raise ImproperlyConfigured("LOG_FORMAT must be 'json' or 'text'")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "operations.logs.JsonFormatter"}, "text": {"format": "%(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO") or "INFO"},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}
