# Two commands do all the set-up on a fresh machine:
#   make run    the service on the embedded default (SQLite, in-memory channel layer), with the closer
#   make test   the whole suite, on PostgreSQL and Redis (started here if they are down),
#               then again on the embedded default (make test-embedded)
# and one more runs it as production does, on one machine:
#   make cluster   nginx on 127.0.0.1:8080 in front of cores + 1 workers and the closer, on PostgreSQL and Redis
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/postgres
TEST_REDIS_URL ?= redis://127.0.0.1:6379/1
CLUSTER_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/league
CLUSTER_REDIS_URL ?= redis://127.0.0.1:6379/0
WORKERS ?=

.PHONY: run test test-embedded test-fast cluster lint typecheck bench clean

$(BIN)/.installed: requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $@

run: $(BIN)/.installed
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python -m operations.run -b $(HOST) -p $(PORT) config.asgi:application

test: $(BIN)/.installed
	./scripts/services.sh
	./scripts/chromium.sh
	./scripts/axe.sh
	./scripts/nginx.sh
	./scripts/compose.sh
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} REDIS_URL=$${REDIS_URL:-$(TEST_REDIS_URL)} \
		$(BIN)/pytest $(PYTEST_ARGS); services=$$?; \
	$(MAKE) --no-print-directory test-embedded; embedded=$$?; \
	[ $$services -eq 0 ] && [ $$embedded -eq 0 ]

# The suite on what `make run` serves: SQLite (a test database file in a temporary directory), the
# in-memory channel layer and the local-memory cache. Without the tests that need PostgreSQL or
# Redis by nature (marked postgres, redis), which the run above covers, and of the browser tests
# only a new player's first game (marked embedded): all of them would add some three minutes.
test-embedded: $(BIN)/.installed
	env -u DATABASE_URL -u REDIS_URL \
		$(BIN)/pytest -m "not postgres and not redis and (not e2e or embedded)" $(PYTEST_ARGS)

# The suite without the browser tests, for a quick loop.
test-fast: $(BIN)/.installed
	./scripts/services.sh
	./scripts/nginx.sh
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} REDIS_URL=$${REDIS_URL:-$(TEST_REDIS_URL)} \
		$(BIN)/pytest -m "not e2e" $(PYTEST_ARGS)

# In the foreground until Ctrl-C, which stops everything it started (operations/cluster.py).
cluster: $(BIN)/.installed
	./scripts/services.sh
	./scripts/nginx.sh
	DATABASE_URL=$${DATABASE_URL:-$(CLUSTER_DATABASE_URL)} REDIS_URL=$${REDIS_URL:-$(CLUSTER_REDIS_URL)} \
		$(BIN)/python -m operations.cluster $(if $(WORKERS),--workers $(WORKERS))

lint: $(BIN)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(BIN)/.installed
	$(BIN)/mypy

clean:
	rm -rf $(VENV) db.sqlite3 db.sqlite3-wal db.sqlite3-shm db.sqlite3.closer.lock staticfiles .pytest_cache .mypy_cache .hypothesis
