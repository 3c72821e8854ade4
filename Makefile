# Two commands do all the set-up on a fresh machine:
#   make run    the service on the embedded default (SQLite, in-memory channel layer)
#   make test   the whole suite, on PostgreSQL and Redis (started here if they are down)
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/postgres
TEST_REDIS_URL ?= redis://127.0.0.1:6379/1

.PHONY: run test test-fast lint typecheck bench clean

$(BIN)/.installed: requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $@

run: $(BIN)/.installed
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/daphne -b $(HOST) -p $(PORT) config.asgi:application

test: $(BIN)/.installed
	./scripts/services.sh
	./scripts/chromium.sh
	./scripts/axe.sh
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} REDIS_URL=$${REDIS_URL:-$(TEST_REDIS_URL)} \
		$(BIN)/pytest $(PYTEST_ARGS)

# The suite without the browser tests, for a quick loop.
test-fast: $(BIN)/.installed
	./scripts/services.sh
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} REDIS_URL=$${REDIS_URL:-$(TEST_REDIS_URL)} \
		$(BIN)/pytest -m "not e2e" $(PYTEST_ARGS)

lint: $(BIN)/.installed
	$(BIN)/ruff check .

typecheck: $(BIN)/.installed
	$(BIN)/mypy

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .mypy_cache .hypothesis
