# The bot's image, for compose.yaml (docs/deploy.md). Build: docker build -t jiangxi-mahjong .
FROM python:3.11-slim
WORKDIR /app
ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
COPY pyproject.toml README.md ./
COPY bot.py ./
COPY botcore ./botcore
COPY cogs ./cogs
COPY db ./db
COPY engine ./engine
COPY i18n ./i18n
COPY render ./render
COPY services ./services
RUN pip install --no-cache-dir .
# SQLite's default file lives here (one process); PostgreSQL needs no volume of the bot's
VOLUME ["/app/data"]
# SIGTERM (docker stop) closes the bot cleanly: its queued messages go out, the other
# processes take its deadlines over
STOPSIGNAL SIGTERM
CMD ["python", "bot.py"]
