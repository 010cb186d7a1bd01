"""The container image, compose and Kubernetes (docs/deploy.md), checked without Docker or a cluster.

* The ``Dockerfile`` read instruction by instruction: the slim Python 3.11 base, the pinned requirements installed with
  ``-r``, the app and its stored sweeps copied, a user other than root before the entry point, a health check on
  Streamlit's ``/_stcore/health``.
* The image's files (what the Dockerfile's ``COPY`` lines take, minus ``.dockerignore``) copied into a folder and
  ``deploy/entrypoint.sh`` run there in a plain shell with this interpreter (``PYTHON``), as the container would run
  it: it becomes healthy, warms every page before it says it is ready, answers the Dockerfile's own health command,
  and stops on SIGTERM with every process it started. A bad environment ends it with status 2 and a message, before
  it starts anything.
* ``deploy/compose.yaml``, ``deploy/nginx-compose.conf`` (through ``nginx -t``) and ``deploy/k8s/`` read as data: the
  probes, the cookie affinity, the websockets' time-outs, every variable the app reads passed to every replica, no
  root.
"""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

from classroom import limits, teacher_key
from deploy.public_url import parse_public_url
from deploy.replicas import COOKIE, NGINX, UPLOAD_MB
from deploy.warm import QUERIES
from registry import PAGES
from tests.processes import kill_left, process_tree, wait_until_gone

ROOT = Path(__file__).resolve().parents[2]
ENTRYPOINT = "deploy/entrypoint.sh"
#: what the app reads from its environment, which every replica of a deployment must be given
APP_ENV = ("DPLAB_POLL_STORE", "DPLAB_SECRET", "DPLAB_TEACHER_KEY", "DPLAB_PUBLIC_URL", "DPLAB_TRUSTED_PROXIES")
LESSON_SECONDS = 3600  #: a websocket must stay open this long through a proxy (a lesson)


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, ``(KEYWORD, arguments)``, continuation lines joined, comments left out."""
    text = re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text())
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1].strip())
            for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def health_command() -> str:
    """The shell command of the Dockerfile's HEALTHCHECK (after its options)."""
    [arguments] = [arguments for keyword, arguments in dockerfile() if keyword == "HEALTHCHECK"]
    return arguments.split(" CMD ", 1)[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def health(port: int) -> int:
    """The HTTP status of ``/_stcore/health`` on ``port``, 0 when nothing answers."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as answer:
            return answer.status
    except OSError:
        return 0


def shell_environment(**extra: str) -> dict[str, str]:
    """The environment the entry script and the health command run in: this interpreter first on PATH (as the
    image's ``python``), none of the lab's variables of the test process (nor PYTHONPATH: the image's folder is the
    only source of the app), then ``extra``."""
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith("DPLAB_") and key != "PYTHONPATH"}
    environment["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{environment.get('PATH', '')}"
    environment["PYTHON"] = sys.executable
    return environment | extra


def group_members(group: int) -> list[int]:
    """The processes of process group ``group`` still running (not zombies), from ``/proc``."""
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z" and int(fields[2]) == group:
                members.append(int(entry.name))
    return members


# --- the Dockerfile -----------------------------------------------------------------------------------------------


def test_the_dockerfile_installs_the_pinned_requirements_copies_the_sweeps_and_runs_as_a_user():
    instructions = dockerfile()
    keywords = [keyword for keyword, _ in instructions]
    assert instructions[0] == ("FROM", "python:3.11-slim-bookworm")
    copies = [arguments.split() for keyword, arguments in instructions if keyword == "COPY"]
    runs = [arguments for keyword, arguments in instructions if keyword == "RUN"]
    first_code = next(index for index, copy in enumerate(copies) if copy[0] != "requirements.txt")
    assert ["requirements.txt", "./"] in copies[:first_code]  # the requirements' layer comes before the code
    assert any(re.search(r"pip install --no-cache-dir -r requirements\.txt", run) for run in runs)
    requirements = [line.split("#")[0].strip() for line in (ROOT / "requirements.txt").read_text().splitlines()]
    assert all("==" in line for line in requirements if line)  # pinned: the image installs what the tests ran
    sources = {source.rstrip("/") for copy in copies for source in copy[:-1]}
    assert {"assets", "app.py", "registry.py", "dpcore", "ui", "classroom", "app_pages", "deploy"} <= sources
    assert (ROOT / "assets" / "precomputed").is_dir() and any((ROOT / "assets" / "precomputed").glob("*.npz"))
    users = [(index, arguments) for index, (keyword, arguments) in enumerate(instructions) if keyword == "USER"]
    entry = keywords.index("ENTRYPOINT")
    assert "CMD" not in keywords[:entry] and users and users[-1][0] < entry
    assert users[-1][1].split(":")[0] not in ("root", "0")
    assert json.loads(dict(instructions)["ENTRYPOINT"]) == [f"/app/{ENTRYPOINT}"]
    assert dict(instructions)["EXPOSE"] == "8501" and dict(instructions)["WORKDIR"] == "/app"
    assert "/_stcore/health" in health_command() and "urllib" in health_command()
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv", ".lab-data", ".pytest_cache", ".hypothesis", "**/__pycache__"} <= set(ignored)


@pytest.fixture(scope="module")
def image_tree(tmp_path_factory) -> Path:
    """The files of the image under ``/app``: what each COPY of the Dockerfile takes, without what .dockerignore
    names (caches) — so a file the app needs and the Dockerfile forgets fails the test below."""
    app = tmp_path_factory.mktemp("image") / "app"
    app.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for keyword, arguments in dockerfile():
        if keyword != "COPY":
            continue
        *sources, target = arguments.split()
        for source in sources:
            path = ROOT / source
            if path.is_dir():
                shutil.copytree(path, app / target, ignore=ignore, dirs_exist_ok=True)
            else:
                shutil.copy2(path, app / target)
    return app


# --- the entry script ---------------------------------------------------------------------------------------------


def test_the_entry_script_warms_every_page_before_it_is_ready_answers_the_health_check_and_stops_on_sigterm(
        image_tree, tmp_path):
    port, key, ready = free_port(), teacher_key.new_key(), tmp_path / "ready"
    environment = shell_environment(PORT=str(port), DPLAB_DATA_DIR=str(tmp_path / "data"), DPLAB_TEACHER_KEY=key,
                                    DPLAB_PUBLIC_URL="http://192.0.2.10:8080/", DPLAB_SECRET="s" * 32,
                                    DPLAB_READY_FILE=str(ready))
    log_path = tmp_path / "entrypoint.log"
    with log_path.open("w") as log:
        entry = subprocess.Popen(["sh", str(image_tree / ENTRYPOINT)], cwd=tmp_path, env=environment, stdout=log,
                                 stderr=subprocess.STDOUT, start_new_session=True)
    tree = {}
    try:
        deadline, healthy_before_ready = time.monotonic() + 120, False
        while "Ready" not in (said := log_path.read_text()):
            assert entry.poll() is None and time.monotonic() < deadline, said
            healthy_before_ready |= health(port) == 200 and not ready.exists()
            time.sleep(0.1)
        tree = process_tree(entry.pid)
        said = log_path.read_text()
        warmed = re.search(r"Warmed http://127\.0\.0\.1:(\d+): (\d+) page runs \((\d+) pages\) in ([\d.]+) s", said)
        assert warmed, said
        assert (int(warmed[1]), int(warmed[2]), int(warmed[3])) == (port, len(PAGES) * len(QUERIES), len(PAGES))
        assert said.index("Warmed") < said.index("Ready") and ready.exists()
        assert healthy_before_ready  # it answered its health check while it warmed, and became ready after
        assert key not in said and "Teacher key" not in said  # a given key is never printed
        assert "Traceback" not in said
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/truncation-bias", timeout=5) as page:
            assert page.status == 200 and b"<html" in page.read().lower()
        streamlit = [pid for pid, (_, command) in tree.items() if "streamlit run app.py" in command]
        assert len(streamlit) == 1 and f"--server.port {port}" in tree[streamlit[0]][1]
        assert "--server.address 0.0.0.0" in tree[streamlit[0]][1]
        assert Path(f"/proc/{streamlit[0]}/cwd").resolve() == image_tree.resolve()  # served from the image's files

        probe = subprocess.run(["sh", "-c", health_command()], env=shell_environment(PORT=str(port)),
                               capture_output=True, timeout=30)
        assert probe.returncode == 0, probe.stderr

        start = time.monotonic()
        entry.send_signal(signal.SIGTERM)  # what `docker stop` sends the container's first process
        assert entry.wait(15) == 0
        assert wait_until_gone(tree, 5) == [] and group_members(entry.pid) == []
        assert time.monotonic() - start < 10 and health(port) == 0 and not ready.exists()
        assert "Stopping streamlit" in log_path.read_text()
    finally:
        if entry.poll() is None:
            os.killpg(entry.pid, signal.SIGKILL)
            entry.wait(10)
        kill_left(tree)


def test_the_health_command_fails_when_nothing_answers():
    probe = subprocess.run(["sh", "-c", health_command()], env=shell_environment(PORT=str(free_port())),
                           capture_output=True, timeout=30)
    assert probe.returncode != 0


def example_secret() -> dict[str, str]:
    """The placeholder values of deploy/k8s/secret.example.yaml."""
    [secret] = yaml.safe_load_all((ROOT / "deploy/k8s/secret.example.yaml").read_text())
    return secret["stringData"]


@pytest.mark.parametrize("variable, value, message", [
    ("DPLAB_PUBLIC_URL", "http://localhost:8501", "public URL must be an address students' phones can reach"),
    ("DPLAB_PUBLIC_URL", "192.168.1.20:8501", "did you mean http://192.168.1.20:8501?"),
    ("DPLAB_TEACHER_KEY", "short", "at least 12 letters and digits"),
    ("DPLAB_SECRET", "s" * 31, "at least 32 characters"),
    ("DPLAB_POLL_STORE", "mysql://lab@db/lab", "must be a PostgreSQL address"),
    ("DPLAB_TRUSTED_PROXIES", "10.0.0.0/33", "DPLAB_TRUSTED_PROXIES lists addresses or networks"),
    ("DPLAB_TEACHER_KEY", example_secret()["DPLAB_TEACHER_KEY"], "at least 12 letters and digits"),
    ("DPLAB_SECRET", example_secret()["DPLAB_SECRET"], "at least 32 characters"),
])
def test_a_bad_environment_ends_the_entry_script_with_status_2_and_a_message(tmp_path, variable, value, message):
    port = free_port()
    environment = shell_environment(PORT=str(port), DPLAB_DATA_DIR=str(tmp_path), DPLAB_TEACHER_KEY="K7QX-2ABC-DEFG")
    environment[variable] = value
    result = subprocess.run(["sh", str(ROOT / ENTRYPOINT)], env=environment, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2
    assert message in result.stderr and variable in result.stderr
    assert "Traceback" not in result.stderr + result.stdout and "streamlit" not in result.stdout.lower()
    assert health(port) == 0  # nothing was started


# --- compose ------------------------------------------------------------------------------------------------------


def compose() -> dict:
    return yaml.safe_load((ROOT / "deploy/compose.yaml").read_text())


def lab_services(services: dict) -> dict[str, dict]:
    """The services built from the Dockerfile: the lab's replicas."""
    return {name: service for name, service in services.items()
            if service.get("build", {}).get("dockerfile") == "Dockerfile"}


def test_compose_runs_replicas_of_the_image_on_postgresql_with_every_variable_the_app_reads():
    services = compose()["services"]
    replicas = lab_services(services)
    assert len(replicas) >= 2
    postgres = services["postgres"]
    assert postgres["image"].startswith("postgres:15") and "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    assert any(volume.endswith(":/var/lib/postgresql/data") for volume in postgres["volumes"])
    for replica in replicas.values():
        assert (ROOT / "deploy" / replica["build"]["context"] / "Dockerfile").resolve() == ROOT / "Dockerfile"
        environment = replica["environment"]
        assert set(APP_ENV) <= set(environment)
        assert re.fullmatch(r"postgresql://\w+:\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:5432/\w+",
                            environment["DPLAB_POLL_STORE"])
        for required in ("DPLAB_SECRET", "DPLAB_TEACHER_KEY"):  # one value for every replica, or compose refuses
            assert re.fullmatch(rf"\$\{{{required}:\?[^}}]+\}}", environment[required])
        assert replica["depends_on"]["postgres"]["condition"] == "service_healthy"
        # the replicas believe nginx's X-Real-IP from the compose network, and only from it
        subnet = compose()["networks"]["lab"]["ipam"]["config"][0]["subnet"]
        assert environment["DPLAB_TRUSTED_PROXIES"] == subnet and replica["networks"] == ["lab"]
        assert limits.trusted_proxies(subnet)[0].num_addresses == 256
    nginx = services["nginx"]
    assert nginx["networks"] == ["lab"] and "X-Real-IP $remote_addr" in nginx_compose_conf()
    assert any(volume.startswith("./nginx-compose.conf:") for volume in nginx["volumes"])
    assert set(nginx["depends_on"]) == set(replicas)


def nginx_compose_conf() -> str:
    return (ROOT / "deploy/nginx-compose.conf").read_text()


def seconds(value: str) -> float:
    """An nginx time (``3600``, ``3600s``, ``60m``, ``1h``, ``1d``) in seconds."""
    number, unit = re.fullmatch(r"(\d+)(ms|s|m|h|d)?", value).groups()
    return int(number) * {"ms": 1e-3, "s": 1, None: 1, "m": 60, "h": 3600, "d": 86400}[unit]


def test_compose_nginx_keeps_a_browser_on_one_replica_by_cookie_and_its_websocket_open_for_a_lesson():
    conf = re.sub(r"#.*", "", nginx_compose_conf())  # the directives, without the comments
    replicas = lab_services(compose()["services"])
    upstream = re.search(r"upstream lab \{(.*?)\}", conf, flags=re.DOTALL)[1]
    assert re.findall(r"server (\w+):8501", upstream) == sorted(replicas)  # every replica, by its service name
    [key] = re.findall(r"hash (\$\w+) consistent;", upstream)
    # the hash is on the cookie (a first request, without one, on the random key it is then given)
    assert re.search(rf'map \$cookie_{COOKIE} {re.escape(key)} {{ "" \$request_id; default \$cookie_{COOKIE}; }}', conf)
    assert f"{COOKIE}=$request_id" in conf and "add_header Set-Cookie $replica_cookie always;" in conf
    assert "ip_hash" not in conf
    assert "proxy_set_header Upgrade $http_upgrade;" in conf
    assert "proxy_set_header Connection $connection_upgrade;" in conf and "proxy_http_version 1.1;" in conf
    for direction in ("read", "send"):
        [timeout] = re.findall(rf"proxy_{direction}_timeout (\w+);", conf)
        assert seconds(timeout) >= LESSON_SECONDS
    assert f"client_max_body_size {UPLOAD_MB}m;" in conf


def test_compose_nginx_conf_passes_nginx_t(tmp_path):
    """``nginx -t`` on the configuration inside a minimal main file, as the nginx image includes it; the replicas'
    Docker names (resolved when nginx starts, unknown here) replaced by loopback ports."""
    names = iter(range(1, 100))
    conf = re.sub(r"server \w+:8501", lambda _: f"server 127.0.0.1:{18500 + next(names)}", nginx_compose_conf())
    (tmp_path / "lab.conf").write_text(conf)
    (tmp_path / "nginx.conf").write_text(f"pid {tmp_path}/nginx.pid;\nevents {{}}\nhttp {{\n"
                                         f"    include {tmp_path}/lab.conf;\n}}\n")
    result = subprocess.run([NGINX, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"),
                             "-e", str(tmp_path / "error.log")], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr


# --- Kubernetes ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def manifests() -> dict[str, dict]:
    """Every object of deploy/k8s/*.yaml by kind (one of each)."""
    objects = [document for path in sorted((ROOT / "deploy/k8s").glob("*.yaml"))
               for document in yaml.safe_load_all(path.read_text()) if document]
    kinds = [document["kind"] for document in objects]
    assert sorted(kinds) == ["ConfigMap", "Deployment", "Ingress", "Secret", "Service"]
    return {document["kind"]: document for document in objects}


def test_the_deployment_probes_the_health_check_and_runs_replicas_as_a_user(manifests):
    deployment = manifests["Deployment"]
    assert deployment["spec"]["replicas"] >= 2
    pod = deployment["spec"]["template"]["spec"]
    [container] = pod["containers"]
    for probe in ("readinessProbe", "livenessProbe"):
        assert container[probe]["httpGet"] == {"path": "/_stcore/health", "port": 8501}
    startup = container["startupProbe"]["exec"]["command"]
    ready_file = re.search(r"READY_FILE=\$\{DPLAB_READY_FILE:-([^}]+)\}", (ROOT / ENTRYPOINT).read_text())[1]
    assert startup == ["test", "-f", ready_file]  # started once the entry script has warmed every page
    assert {"cpu", "memory"} <= set(container["resources"]["requests"]) & set(container["resources"]["limits"])
    assert pod["securityContext"]["runAsNonRoot"] is True and pod["securityContext"]["runAsUser"] != 0
    uid = re.search(r"useradd [^\n]*--uid (\d+)", (ROOT / "Dockerfile").read_text())[1]
    assert pod["securityContext"]["runAsUser"] == int(uid)  # the image's own user
    assert container["securityContext"]["allowPrivilegeEscalation"] is False
    assert container["ports"] == [{"name": "http", "containerPort": 8501}]


def test_the_deployment_takes_every_variable_the_app_reads_from_the_secret_or_the_config_map(manifests):
    [container] = manifests["Deployment"]["spec"]["template"]["spec"]["containers"]
    environment = {variable["name"]: variable["valueFrom"] for variable in container["env"]}
    assert set(APP_ENV) <= set(environment)
    secret, config = manifests["Secret"], manifests["ConfigMap"]
    for name in ("DPLAB_POLL_STORE", "DPLAB_SECRET", "DPLAB_TEACHER_KEY"):
        assert environment[name]["secretKeyRef"] == {"name": secret["metadata"]["name"], "key": name}
        assert name in secret["stringData"]
    for name in ("DPLAB_PUBLIC_URL", "DPLAB_TRUSTED_PROXIES"):
        assert environment[name]["configMapKeyRef"] == {"name": config["metadata"]["name"], "key": name}
    assert limits.trusted_proxies(config["data"]["DPLAB_TRUSTED_PROXIES"])  # a list the entry script accepts
    url = config["data"]["DPLAB_PUBLIC_URL"]
    assert parse_public_url(url) == url
    assert url.split("://")[1] == manifests["Ingress"]["spec"]["rules"][0]["host"]


def test_the_example_secret_holds_placeholders_only():
    text = (ROOT / "deploy/k8s/secret.example.yaml").read_text()
    assert "EXAMPLE ONLY" in text
    assert all("REPLACE-ME" in value for value in example_secret().values())
    assert example_secret()["DPLAB_POLL_STORE"].startswith("postgresql://")


def test_the_ingress_keeps_a_browser_on_one_pod_by_cookie_and_its_websocket_open_for_a_lesson(manifests):
    ingress, service = manifests["Ingress"], manifests["Service"]
    annotations = {key.removeprefix("nginx.ingress.kubernetes.io/"): value
                   for key, value in ingress["metadata"]["annotations"].items()}
    assert annotations["affinity"] == "cookie" and annotations["session-cookie-name"] == COOKIE
    assert float(annotations["proxy-read-timeout"]) >= LESSON_SECONDS
    assert float(annotations["proxy-send-timeout"]) >= LESSON_SECONDS
    assert annotations["proxy-body-size"] == f"{UPLOAD_MB}m"
    assert all(isinstance(value, str) for value in annotations.values())  # Kubernetes takes strings only
    [rule] = ingress["spec"]["rules"]
    backend = rule["http"]["paths"][0]["backend"]["service"]
    assert backend["name"] == service["metadata"]["name"]
    [port] = service["spec"]["ports"]
    assert backend["port"] == {"name": port["name"]} and port["targetPort"] == 8501
    pod_labels = manifests["Deployment"]["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= pod_labels.items()

