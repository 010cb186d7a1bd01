#!/usr/bin/env bash
# Private Estimation Lab: set everything up from nothing, then run the app, the tests or the benchmarks.
#   ./lab.sh app     [streamlit options]   install into .venv and open the app; --public-url URL: the address
#                                          students reach, for the pages' QR codes (DPLAB_PUBLIC_URL); prints the
#                                          teacher key (or takes DPLAB_TEACHER_KEY)
#   ./lab.sh test    [pytest options]      install test dependencies (and Debian's chromium, nginx, PostgreSQL), lint
#                                          (ruff), start a throw-away PostgreSQL cluster, run every test and every
#                                          docstring example on every core (pytest-xdist; -n 0: one)
#   ./lab.sh bench                         print the benchmark figures
#   ./lab.sh load N [--replicas R]         N sessions at once against a fresh server, then a warm one
#   ./lab.sh serve [--replicas N]          N app processes behind nginx on 127.0.0.1:8501 (default: one per core),
#                                          one teacher key for all (printed, or DPLAB_TEACHER_KEY);
#                  [--public-url URL]      the address students reach (their QR codes; nginx then on 0.0.0.0)
#                  [--poll-store URL]      the class poll in a PostgreSQL database several machines share (app too;
#                                          DPLAB_POLL_STORE; default: SQLite in .lab-data), see docs/deploy.md
#   ./lab.sh sweep PAGE --trials T         store PAGE's sweeps at T trials (beyond its slider) for the app to serve;
#                  [--scheduler ADDRESS]   computed on a Dask cluster if given (pip install .[dask])
#   ./lab.sh precompute                    store every page's sweeps at its defaults and one move away from them
#                                          (every option of each discrete control) in assets/precomputed
set -euo pipefail
cd "$(dirname "$0")"

VENV=.venv

python_311() {
  for candidate in python3.11 python3; do
    if command -v "$candidate" >/dev/null && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
      echo "$candidate"; return
    fi
  done
  echo "Python 3.11 or newer is required (python3.11 / python3 not found or too old)." >&2; exit 1
}

# Create .venv and install $1 (a requirements file) plus dpcore itself; skipped when nothing changed.
install() {
  local requirements=$1 stamp
  [ -x "$VENV/bin/python" ] || "$(python_311)" -m venv "$VENV"
  stamp=$(cat "$requirements" requirements.txt pyproject.toml | sha256sum | cut -c1-16)
  if [ "$(cat "$VENV/.installed-$requirements" 2>/dev/null)" != "$stamp" ]; then
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -e .
    echo "$stamp" > "$VENV/.installed-$requirements"
  fi
}

# Debian's packages "$@" (apt, with sudo unless root).
apt_install() {
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "$@"
}

# Debian's chromium for the browser tests (`playwright install` cannot download a browser here).
install_chromium() {
  [ -x /usr/bin/chromium ] && return
  echo "Installing Debian's chromium for the browser tests..."
  apt_install chromium
}

# Debian's nginx for `serve` and its tests (only the binary is used; it runs with the lab's own configuration), and
# its brotli_static module where Debian has it (without it nginx sends the gzip files only: a few more bytes).
install_nginx() {
  if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
    echo "Installing Debian's nginx for ./lab.sh serve..."
    apt_install nginx-light
  fi
  [ -e /usr/lib/nginx/modules/ngx_http_brotli_static_module.so ] && return
  echo "Installing Debian's brotli module for nginx (optional: without it nginx sends gzip only)..."
  apt_install libnginx-mod-http-brotli-static || echo "No brotli module for nginx here: gzip only."
}

# Debian's PostgreSQL for the tests of the class poll on PostgreSQL (its programs only: the tests run a throw-away
# cluster of their own, tests/postgres_cluster.py).
install_postgres() {
  command -v initdb >/dev/null && return
  compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null && return
  echo "Installing Debian's PostgreSQL for the tests of the class poll on several machines..."
  apt_install postgresql
}

# --poll-store URL (or --poll-store=URL): the class poll's PostgreSQL database, for a lab on several machines
# (DPLAB_POLL_STORE; unset: SQLite in this machine's data folder). Opened once here: a wrong URL or a server out of
# reach stops the start with a sentence. The other options are left in the array `rest`.
poll_store_option() {
  rest=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --poll-store) [ $# -ge 2 ] || { echo "--poll-store needs a URL" >&2; exit 2; }
                    DPLAB_POLL_STORE=$2; shift 2 ;;
      --poll-store=*) DPLAB_POLL_STORE=${1#*=}; shift ;;
      *) rest+=("$1"); shift ;;
    esac
  done
  if [ -n "${DPLAB_POLL_STORE:-}" ]; then
    export DPLAB_POLL_STORE
    "$VENV/bin/python" -m classroom.lab_store || exit 2
  fi
}

# The lab's teacher key (classroom/teacher_key.py): DPLAB_TEACHER_KEY if set (checked), else a new one, printed once;
# exported, so every replica has the same.
teacher_key() {
  local given=${DPLAB_TEACHER_KEY:-}
  DPLAB_TEACHER_KEY=$("$VENV/bin/python" -m classroom.teacher_key) || exit 2
  export DPLAB_TEACHER_KEY
  if [ -z "$given" ]; then
    echo "Teacher key: $DPLAB_TEACHER_KEY  (type it once in the teacher view, any page with ?teacher=1;" \
         "set DPLAB_TEACHER_KEY to keep one key across starts)"
  else
    echo "Teacher key: the one DPLAB_TEACHER_KEY sets."
  fi
}

command=${1:-}
shift || true
case "$command" in
  app)
    install requirements.txt
    poll_store_option "$@"
    set -- "${rest[@]}"
    # --public-url URL (or --public-url=URL) is the lab's, checked here and passed as DPLAB_PUBLIC_URL; the rest
    # goes to streamlit.
    options=()
    while [ $# -gt 0 ]; do
      case "$1" in
        --public-url) [ $# -ge 2 ] || { echo "--public-url needs a URL" >&2; exit 2; }
                      DPLAB_PUBLIC_URL=$("$VENV/bin/python" -m deploy.public_url "$2") || exit 2; shift 2 ;;
        --public-url=*) DPLAB_PUBLIC_URL=$("$VENV/bin/python" -m deploy.public_url "${1#*=}") || exit 2; shift ;;
        *) options+=("$1"); shift ;;
      esac
    done
    if [ -n "${DPLAB_PUBLIC_URL:-}" ]; then
      export DPLAB_PUBLIC_URL
      echo "For a class, prefer ./lab.sh serve --public-url URL: it sends Streamlit's files compressed (a phone's" \
           "first page 2.4–2.9 MiB instead of 8: its first chart after about 9 s instead of 22 on a busy Wi-Fi)" \
           "and uses every core. This one process sends them uncompressed."
    fi
    teacher_key
    exec "$VENV/bin/streamlit" run app.py "${options[@]}" ;;
  test)
    install requirements-dev.txt
    install_chromium
    install_nginx
    install_postgres
    "$VENV/bin/ruff" check .
    # a throw-away PostgreSQL cluster for the poll store's tests on PostgreSQL, stopped when the tests end
    cluster=$(mktemp -d)
    trap '"$VENV/bin/python" -m tests.postgres_cluster stop "$cluster"' EXIT
    DPLAB_TEST_POSTGRES=$("$VENV/bin/python" -m tests.postgres_cluster start "$cluster")
    export DPLAB_TEST_POSTGRES
    # one worker per core; the browser tests stay together on one worker, each AppTest module on one (tests/conftest.py)
    "$VENV/bin/python" -m pytest -n auto --dist loadgroup "$@" ;;
  bench)
    install requirements-dev.txt
    install_nginx
    for script in benchmarks/bench_*.py; do "$VENV/bin/python" "$script"; done  # bench_dask: 1 vs 2 Dask workers
    "$VENV/bin/python" benchmarks/interaction_latency.py "$@"
    "$VENV/bin/python" benchmarks/fresh_seed.py                                                # CPU of a new draw
    "$VENV/bin/python" benchmarks/answers_at_once.py                       # one and two moves: a first answer in 3 s
    "$VENV/bin/python" benchmarks/load.py
    "$VENV/bin/python" benchmarks/load.py --sessions 100 --changes 3 --ramp 20 --think 3 8   # a class reading
    "$VENV/bin/python" benchmarks/load.py --sequential 200                                     # memory levels off
    "$VENV/bin/python" benchmarks/load.py --poll 60 --ramp 20 --think 3 8                   # a class poll, 60 voters
    "$VENV/bin/python" benchmarks/exercise_checks.py                    # "Check yourself": CPU and seconds per check
    "$VENV/bin/python" benchmarks/fairness.py                                                  # beside a heavy visitor
    "$VENV/bin/python" benchmarks/worker_memory.py                                 # the worker at the top trial count
    "$VENV/bin/python" benchmarks/real_data_upload.py                     # a 100,000-row upload, then 20 changes
    "$VENV/bin/python" benchmarks/upload_memory.py                 # a 1,000,000-row upload: memory, 1 and 5 tabs
    "$VENV/bin/python" benchmarks/fuzz_links.py                                    # bad links: no traceback, no markup
    "$VENV/bin/python" benchmarks/faults.py                                        # a killed worker, a killed replica
    "$VENV/bin/python" benchmarks/two_hosts.py                          # a host killed mid-poll behind an outer nginx
    "$VENV/bin/python" benchmarks/load.py --sessions 50 --replicas 1
    "$VENV/bin/python" benchmarks/load.py --sessions 50 --replicas 2
    "$VENV/bin/python" benchmarks/wire_bytes.py                     # bytes to a phone through serve, first chart
    "$VENV/bin/python" benchmarks/wire_bytes.py --gzip-only                     # a classroom over plain http
    "$VENV/bin/python" benchmarks/load.py --keynote               # 500 over 20 s through serve, 2 moves each
    "$VENV/bin/python" benchmarks/load.py --keynote --poll 500 ;;                 # a poll of 500 voters
  load)
    install requirements-dev.txt
    install_nginx
    "$VENV/bin/python" benchmarks/load.py --sessions "${1:-25}" "${@:2}" ;;
  serve)
    install requirements.txt
    install_nginx
    poll_store_option "$@"
    teacher_key
    exec "$VENV/bin/python" -m deploy.replicas "${rest[@]}" ;;
  sweep)
    install requirements-dev.txt
    exec "$VENV/bin/python" -m ui.reproduce "$@" ;;
  precompute)
    install requirements-dev.txt
    rm -rf assets/precomputed
    "$VENV/bin/python" -m ui.precompute
    du -sh assets/precomputed; ls assets/precomputed | wc -l ;;
  *)
    echo "usage: ./lab.sh app|test|bench|load|serve|sweep|precompute [options]" >&2; exit 2 ;;
esac
