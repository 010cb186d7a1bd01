# The lab as a container image: one Streamlit replica, warmed before its first visitor (deploy/entrypoint.sh).
#   docker build -t dplab .
#   docker run --rm -p 8501:8501 -e DPLAB_TEACHER_KEY=K7QX-2ABC-DEFG dplab
# Several replicas, PostgreSQL and nginx: deploy/compose.yaml; Kubernetes: deploy/k8s/. See docs/deploy.md.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DPLAB_DATA_DIR=/data \
    PORT=8501

# The lab runs as this user, never as root; /data holds the SQLite poll store and the receipts' secret when no
# PostgreSQL (DPLAB_POLL_STORE) and no DPLAB_SECRET are given.
RUN useradd --create-home --uid 10001 --user-group lab \
    && mkdir /data && chown lab:lab /data

WORKDIR /app
# The pinned requirements first, so that a change of the code alone reuses this layer.
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt

# The app, its library (dpcore, imported from /app as under ./lab.sh) and the stored sweeps (assets/precomputed);
# .dockerignore keeps out the rest (the tests, the benchmarks, the docs, .venv, .git, .lab-data).
COPY LICENSE app.py registry.py ./
COPY dpcore/ dpcore/
COPY ui/ ui/
COPY classroom/ classroom/
COPY app_pages/ app_pages/
COPY deploy/ deploy/
COPY assets/ assets/
COPY .streamlit/ .streamlit/
RUN chmod 755 deploy/entrypoint.sh

USER lab
VOLUME ["/data"]
EXPOSE 8501
# Python's urllib: curl is not in the slim image. Fails (exit 1) unless the health check answers 200.
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 \
    CMD python -c "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:${PORT:-8501}/_stcore/health', timeout=4).status != 200)"
ENTRYPOINT ["/app/deploy/entrypoint.sh"]
