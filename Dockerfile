# A web worker: daphne serving Django + Channels, with a graceful stop.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app

COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt

COPY . .
# collectstatic needs settings that load; the real secrets come from the environment at run time.
RUN SECRET_KEY=build-only-$(date +%s)-not-used-at-run-time-xxxxxxxx python manage.py collectstatic --noinput

RUN useradd --create-home league
USER league
EXPOSE 8000

# Exec form: the worker is PID 1 and gets SIGTERM itself, and drains (operations/server.py).
# Behind the balancer (docker-compose.yml); its `migrate` service migrates once before workers start.
# X-Forwarded-For is believed only from TRUSTED_PROXIES (none unless set: compose names its nginx).
CMD ["python", "-m", "operations.server", "-b", "0.0.0.0", "-p", "8000", "config.asgi:application"]
