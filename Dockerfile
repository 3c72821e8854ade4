# The web service: daphne serving Django + Channels.
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

CMD ["sh", "-c", "python manage.py migrate --noinput && daphne -b 0.0.0.0 -p 8000 config.asgi:application"]
