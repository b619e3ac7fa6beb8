# rummy-bot in a slim image, run by an unprivileged user, its SQLite database in /data (mount a
# volume there) or PostgreSQL (set RUMMY_DATABASE_URL). See docs/admin.md, "Docker".
#   docker build -t rummy-bot .
#   docker run -d --init --name rummy --restart on-failure:5 --env-file .env -v rummy-data:/data \
#     -p 127.0.0.1:9108:9108 rummy-bot
FROM python:3.11-slim-bookworm

# Pillow's wheels bring their own image and font libraries and text shaping (raqm), but load
# FriBiDi from the system: without it, scripts that need shaping (Devanagari) are drawn unshaped.
# The fonts are bundled in render/fonts.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/*

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /src
# Exactly the versions of requirements.lock, each checked against its hash, so that two builds
# install the same files; then the bot itself, with the build tools the lock installed.
COPY requirements.lock ./
RUN pip install --require-hashes -r requirements.lock
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY render ./render
RUN pip install --no-deps --no-build-isolation . && rm -rf /src

# /data is where the SQLite database lives: mount a volume there (`-v rummy-data:/data`). It is
# not declared a VOLUME, so that a bot on PostgreSQL (compose.yaml's shards) gets no unused
# anonymous volume.
RUN useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin rummy \
    && mkdir /data && chown rummy:rummy /data
USER rummy
WORKDIR /data

# The database in /data; the metrics and /healthz (which the health check asks) on 9108. They
# answer from the start: 503 and what the bot waits for (the database, Discord), 200 "ok" once
# it plays.
ENV RUMMY_DB_PATH=/data/rummy.db \
    RUMMY_METRICS_HOST=0.0.0.0 \
    RUMMY_METRICS_PORT=9108
EXPOSE 9108
HEALTHCHECK --interval=30s --timeout=5s --start-period=2m --retries=3 \
    CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ['RUMMY_METRICS_PORT'], timeout=4)"

# `docker stop` sends SIGTERM: the bot finishes the moves in flight, saves, closes and exits 0
# within 8 s (Docker kills after 10 s unless told otherwise: `docker stop -t 30`).
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
