#!/bin/sh
# The container's entry script (Dockerfile's ENTRYPOINT; docs/deploy.md): one Streamlit replica of the lab, warmed
# before it is ready for its first visitor.
#
#   1. Checks the environment; a bad value ends it with a message and exit status 2, before anything starts:
#        DPLAB_PUBLIC_URL   the address students reach (python -m deploy.public_url), optional
#        DPLAB_TEACHER_KEY  the teacher key (python -m classroom.teacher_key); unset, one is made and printed, which
#                           suits one container only: every replica of a lab needs the same key
#        DPLAB_SECRET       the receipts' secret, at least 32 characters (classroom/receipts.py), optional
#        DPLAB_POLL_STORE   postgresql://user:pass@host:5432/db for a poll store shared by several hosts, optional
#                           (unset: SQLite in DPLAB_DATA_DIR)
#        DPLAB_TRUSTED_PROXIES  the proxies whose X-Real-IP names the student (classroom/limits.py), optional
#   2. Starts `streamlit run app.py` on 0.0.0.0:${PORT:-8501} in the background (extra arguments go to streamlit),
#      waits for its health check (/_stcore/health), then opens every page once (python -m deploy.warm).
#   3. Writes DPLAB_READY_FILE (default /tmp/dplab-ready; Kubernetes' startupProbe waits for it), prints "Ready" and
#      waits for streamlit. SIGTERM or SIGINT (docker stop, a Kubernetes pod's end) is passed on
#      to streamlit (and to the warm-up if it still runs); the script exits with streamlit's status. Streamlit's sweep
#      worker dies with it (deploy/lifeline.py), so nothing is left behind.
#
# PYTHON names the interpreter (default: python, the image's); the tests run the script with their own.
set -eu
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python}
PORT=${PORT:-8501}
START_SECONDS=${DPLAB_START_SECONDS:-120}  # how long streamlit may take to answer its health check
READY_FILE=${DPLAB_READY_FILE:-/tmp/dplab-ready}  # exists from the end of the warm-up until streamlit stops
url="http://127.0.0.1:$PORT"

say() { echo "entrypoint: $*" >&2; }

if [ -n "${DPLAB_PUBLIC_URL:-}" ]; then
  DPLAB_PUBLIC_URL=$("$PYTHON" -m deploy.public_url "$DPLAB_PUBLIC_URL") \
    || { say "DPLAB_PUBLIC_URL is not usable (above)."; exit 2; }
  export DPLAB_PUBLIC_URL
fi
given_key=${DPLAB_TEACHER_KEY:-}
DPLAB_TEACHER_KEY=$("$PYTHON" -m classroom.teacher_key) || { say "DPLAB_TEACHER_KEY is not usable (above)."; exit 2; }
export DPLAB_TEACHER_KEY
if [ -z "$given_key" ]; then
  say "Teacher key: $DPLAB_TEACHER_KEY (made at this start; set DPLAB_TEACHER_KEY, the same on every replica)"
fi
if [ -n "${DPLAB_SECRET:-}" ] \
   && ! "$PYTHON" -c 'import os, sys; sys.exit(len(os.environ["DPLAB_SECRET"]) < 32)'; then
  say "DPLAB_SECRET must be at least 32 characters long."
  exit 2
fi
if [ -n "${DPLAB_TRUSTED_PROXIES:-}" ] \
   && ! "$PYTHON" -c "$(printf '%s\n' 'import sys' 'from classroom.limits import trusted_proxies' \
          'try: trusted_proxies()' 'except ValueError as wrong: sys.exit(str(wrong))')"; then
  say "DPLAB_TRUSTED_PROXIES is not usable (above)."
  exit 2
fi
case "${DPLAB_POLL_STORE:-}" in
  "" | postgresql://?* | postgres://?*) ;;
  *) say "DPLAB_POLL_STORE must be a PostgreSQL address, postgresql://user:password@host:5432/database."; exit 2 ;;
esac

rm -f "$READY_FILE"
app="" warmer=""
stop() {
  trap - TERM INT
  app=${app:-${!:-}}  # a signal right after streamlit's start, before $! was kept
  say "Stopping streamlit."
  [ -z "$warmer" ] || kill -TERM "$warmer" 2>/dev/null || :
  [ -n "$app" ] || exit 143
  kill -TERM "$app" 2>/dev/null || :
  status=0
  wait "$app" || status=$?
  rm -f "$READY_FILE"
  exit "$status"
}
trap stop TERM INT

"$PYTHON" -m streamlit run app.py --server.address 0.0.0.0 --server.port "$PORT" --server.headless true \
  --server.fileWatcherType none --browser.gatherUsageStats false "$@" &
app=$!

waited=0
until "$PYTHON" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' \
      "$url/_stcore/health" 2>/dev/null; do
  if ! kill -0 "$app" 2>/dev/null; then
    status=0
    wait "$app" || status=$?
    say "streamlit exited (status $status) before answering its health check."
    exit 1
  fi
  if [ "$waited" -ge "$START_SECONDS" ]; then
    say "streamlit did not answer its health check within $START_SECONDS s."
    kill -TERM "$app" 2>/dev/null || :
    wait "$app" || :
    exit 1
  fi
  sleep 1
  waited=$((waited + 1))
done

# The warm-up runs in the background so that a SIGTERM meanwhile is acted on at once (a shell runs a trap only
# between commands, and `wait` is one it interrupts).
"$PYTHON" -m deploy.warm "$url" &
warmer=$!
wait "$warmer" || say "The warm-up failed (above); the lab serves anyway, its first visitors waiting longer."
warmer=""

: > "$READY_FILE"
say "Ready: the lab serves on port $PORT."
status=0
wait "$app" || status=$?
rm -f "$READY_FILE"
exit "$status"
