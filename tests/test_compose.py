"""docker-compose.yml and deploy/, read as Docker would read them (there is no Docker here): the
default stays one Redis and one service; the profile `replicated` has three data servers, three
Sentinels and two service instances on two published ports; every setting the instances get is
one the service reads, and reads without error; the Redis and Sentinel files say what
docs/security.md promises, and the bundled redis-server (Redis 6.2; the image runs 7) takes them.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from kronikas.adapters.embedded_redis import die_with_parent, free_port, redis_binary
from kronikas.adapters.sentinel import credentials
from kronikas.config import Settings
from tests.redis_group import ask, can_start

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "docker-compose.yml"
DEPLOY = ROOT / "deploy"
MOUNTED = "/usr/local/etc/kronikas"
"""Where the services of the profile see deploy/ (read-only)."""
PROFILE = "replicated"
DATA_SERVERS = ("redis-1", "redis-2", "redis-3")
SENTINELS = ("sentinel-1", "sentinel-2", "sentinel-3")
INSTANCES = {"api-1": 8001, "api-2": 8002}
"""The service instances and the port each is published on."""
PASSWORD = "0123456789abcdef"
ENVIRONMENT = {"REDIS_PASSWORD": PASSWORD}
"""What the person running `docker compose` sets (only the password is required)."""


def interpolate(value: str, env: Mapping[str, str]) -> str:
    """Compose's interpolation: `${NAME}`, `${NAME:-default}`, `${NAME:?error}`, and `$$` for a
    `$` left to the container."""

    def one(found: re.Match[str]) -> str:
        if found[0] == "$$":
            return "$"
        name, how, word = found["name"], found["how"], found["word"] or ""
        if env.get(name):
            return env[name]
        if how == ":?":
            raise AssertionError(f"{name} is required: {word}")
        return word if how == ":-" else ""

    return re.sub(r"\$\$|\$\{(?P<name>\w+)(?:(?P<how>:[-?])(?P<word>[^}]*))?\}", one, value)


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return loaded


def services() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = compose()["services"]
    return found


def environment(service: dict[str, Any], given: Mapping[str, str] = ENVIRONMENT) -> dict[str, str]:
    """A service's environment as its container gets it, `given` what `docker compose` runs in."""
    return {name: interpolate(str(value), given) for name, value in service["environment"].items()}


def directives(path: Path) -> list[list[str]]:
    """A Redis or Sentinel configuration file's directives, each split into its words."""
    lines = path.read_text().splitlines()
    return [
        shlex.split(line) for line in lines if line.strip() and not line.lstrip().startswith("#")
    ]


def directive(path: Path, *words: str) -> list[str]:
    """The words after `words` on the one line of `path` that starts with them."""
    found = [d[len(words) :] for d in directives(path) if d[: len(words)] == list(words)]
    assert len(found) == 1, f"{path.name}: {' '.join(words)} {found}"
    return found[0]


class Reading(Mapping[str, str]):
    """An environment that remembers which names were read."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self.env = dict(env)
        self.read: set[str] = set()

    def __getitem__(self, name: str) -> str:
        self.read.add(name)
        return self.env[name]

    def get(self, name: str, default: Any = None) -> Any:
        self.read.add(name)
        return self.env.get(name, default)

    def __contains__(self, name: object) -> bool:
        if isinstance(name, str):
            self.read.add(name)
        return name in self.env

    def __iter__(self) -> Iterator[str]:
        return iter(self.env)

    def __len__(self) -> int:
        return len(self.env)


def settings_of(name: str, given: Mapping[str, str] = ENVIRONMENT) -> Settings:
    """The settings the service instance `name` starts with, every name it is given read."""
    env = Reading(environment(services()[name], given))
    settings = Settings.from_env(env)
    assert set(env.env) - env.read == set(), f"{name} is given settings the service never reads"
    return settings


def test_the_default_is_one_redis_and_one_service_as_before() -> None:
    default = {name: s for name, s in services().items() if "profiles" not in s}
    assert set(default) == {"redis", "api"}
    redis, api = default["redis"], default["api"]
    assert redis["image"] == "redis:7-alpine"
    assert "--appendonly yes --appendfsync everysec --maxmemory-policy noeviction" in " ".join(
        redis["command"]
    )
    assert redis["volumes"] == ["redis-data:/data"]
    assert "ports" not in redis
    assert api["ports"] == ["8000:8000"]
    assert api["depends_on"] == {"redis": {"condition": "service_healthy"}}
    settings = settings_of("api")
    assert settings.redis_url == f"redis://:{PASSWORD}@redis:6379/0"
    assert settings.redis_sentinels == ()
    assert settings.write_replicas == 0
    assert (settings.host, settings.port) == ("0.0.0.0", 8000)


def test_the_replicated_profile_has_three_servers_three_sentinels_and_two_instances() -> None:
    profiled = {name: s for name, s in services().items() if "profiles" in s}
    assert set(profiled) == {*DATA_SERVERS, *SENTINELS, *INSTANCES}
    assert all(s["profiles"] == [PROFILE] for s in profiled.values())
    # Only the instances are published, each on its own port, to the port it listens on.
    published = {name: s["ports"] for name, s in profiled.items() if "ports" in s}
    assert published == {name: [f"{port}:8000"] for name, port in INSTANCES.items()}
    for name in INSTANCES:
        assert settings_of(name).port == 8000
    # Nothing outside the profile depends on it (Compose refuses a model that does), and the
    # profile starts in order: servers, then Sentinels once the servers are healthy, then the
    # instances once the Sentinels are.
    for name, service in services().items():
        for needed in service.get("depends_on", {}):
            assert ("profiles" in services()[needed]) <= ("profiles" in service), (name, needed)
    for name in SENTINELS:
        assert profiled[name]["depends_on"] == {
            server: {"condition": "service_healthy"} for server in DATA_SERVERS
        }
    for name in INSTANCES:
        assert profiled[name]["depends_on"] == {
            sentinel: {"condition": "service_healthy"} for sentinel in SENTINELS
        }
    for name in (*DATA_SERVERS, *SENTINELS):
        assert "healthcheck" in profiled[name], name
    # Each server and Sentinel keeps its data on a volume of its own.
    volumes = [v for name in (*DATA_SERVERS, *SENTINELS) for v in profiled[name]["volumes"]]
    own = [v.split(":")[0] for v in volumes if v.endswith(":/data")]
    assert sorted(own) == sorted(f"{name}-data" for name in (*DATA_SERVERS, *SENTINELS))
    assert set(own) <= set(compose()["volumes"])


def test_the_instances_find_the_primary_through_the_sentinels_and_wait_for_a_replica() -> None:
    monitor = directive(DEPLOY / "sentinel.conf", "sentinel", "monitor")
    name, first, _, quorum = monitor
    sentinel_port = int(directive(DEPLOY / "sentinel.conf", "port")[0])
    for instance in INSTANCES:
        settings = settings_of(instance)
        assert settings.redis_sentinels == tuple((s, sentinel_port) for s in SENTINELS)
        assert settings.redis_sentinel_master == name
        # The Sentinels' own password (their requirepass, sentinel-start.sh) is the servers'.
        assert settings.redis_sentinel_password == PASSWORD
        # REDIS_URL gives the servers' password and database, and names no server (the
        # service refuses to start beside REDIS_SENTINELS with one that does).
        assert settings.redis_url == f"redis://:{PASSWORD}@/0"
        assert credentials(settings.redis_url) == {"password": PASSWORD, "db": 0}
        assert 1 <= settings.write_replicas <= len(DATA_SERVERS) - 1
        assert settings.write_wait_ms >= 100
        # Metrics are off unless asked for, with the token they are asked for with.
        assert not settings.metrics_enabled
        asked = settings_of(instance, {**ENVIRONMENT, "METRICS": "1", "METRICS_TOKEN": "t0ken"})
        assert (asked.metrics_enabled, asked.metrics_token) == (True, "t0ken")
    assert first == DATA_SERVERS[0]
    assert int(quorum) == len(SENTINELS) // 2 + 1


def test_the_data_servers_refuse_writes_cut_off_from_their_replicas_and_keep_an_aof() -> None:
    conf = DEPLOY / "redis.conf"
    assert directive(conf, "min-replicas-to-write") == ["1"]
    assert directive(conf, "min-replicas-max-lag") == ["10"]
    assert directive(conf, "appendonly") == ["yes"]
    assert directive(conf, "appendfsync") == ["everysec"]
    assert directive(conf, "maxmemory-policy") == ["noeviction"]
    # No password, role or address in the shared file: the start script adds them at each start.
    for word in ("requirepass", "masterauth", "replicaof", "replica-announce-ip"):
        assert not [d for d in directives(conf) if d[0] == word], word
    script = (DEPLOY / "redis-start.sh").read_text()
    assert f"include {MOUNTED}/redis.conf" in script
    assert "replica-announce-ip %s" in script
    assert "requirepass %s\\nmasterauth %s" in script


def test_the_sentinels_resolve_and_announce_names_and_keep_a_file_they_may_rewrite() -> None:
    conf = DEPLOY / "sentinel.conf"
    lines = [" ".join(d) for d in directives(conf)]
    # Names must resolve before the `monitor` by name is read.
    assert lines.index("sentinel resolve-hostnames yes") < lines.index(
        next(line for line in lines if line.startswith("sentinel monitor "))
    )
    assert "sentinel announce-hostnames yes" in lines
    assert int(directive(conf, "sentinel", "down-after-milliseconds", "kronikas")[0]) <= 30_000
    assert directive(conf, "dir") == ["/data"]
    script = (DEPLOY / "sentinel-start.sh").read_text()
    # Copied once onto the Sentinel's own volume (a file it may rewrite), then left to it.
    assert "conf=/data/sentinel.conf" in script and 'if [ ! -s "$conf" ]' in script
    assert f"cat {MOUNTED}/sentinel.conf" in script
    assert "sentinel announce-ip %s" in script
    # The password for the servers follows the `monitor` it belongs to (the template's).
    assert "sentinel auth-pass kronikas %s" in script


def test_every_script_a_service_runs_is_in_deploy_and_is_valid_sh() -> None:
    for name in (*DATA_SERVERS, *SENTINELS):
        service = services()[name]
        assert f"./deploy:{MOUNTED}:ro" in service["volumes"]
        shell, script, *arguments = service["command"]
        assert shell == "sh" and script.startswith(f"{MOUNTED}/")
        path = DEPLOY / script.removeprefix(f"{MOUNTED}/")
        subprocess.run(["sh", "-n", str(path)], check=True)
        assert arguments[0] == name  # the name it announces is its own
        if name in DATA_SERVERS:
            assert arguments[1] == DATA_SERVERS[0]


def started(tmp_path: Path, name: str, sentinels_say: str | None) -> str:
    """The configuration deploy/redis-start.sh gives the data server `name` when each Sentinel
    answers `sentinels_say` (None: none answers), run with stand-ins for the image's commands:
    `redis-cli` answers for the Sentinels, `docker-entrypoint.sh` shows the file it was given."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    stand_ins = {
        "redis-cli": "exit 1" if sentinels_say is None else f"printf '{sentinels_say}'",
        "chown": "exit 0",
        "docker-entrypoint.sh": 'test "$1" = redis-server && ls -l "$2" && cat "$2"',
    }
    for command, body in stand_ins.items():
        (bin_dir / command).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / command).chmod(0o755)
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "TMPDIR": str(tmp_path)}
    env |= {"REDIS_PASSWORD": PASSWORD, "REDIS_MAXMEMORY": "256mb"}
    command = services()[name]["command"]
    script = DEPLOY / command[1].removeprefix(f"{MOUNTED}/")
    run = subprocess.run(
        ["sh", str(script), *command[2:]], env=env, capture_output=True, text=True, timeout=30
    )
    assert run.returncode == 0, run.stderr
    mode, conf = run.stdout.split("\n", 1)
    assert mode.startswith("-rw-------"), mode  # only Redis's user reads the password
    return conf


@pytest.mark.parametrize(
    ("sentinels_say", "primary"),
    [
        (None, "redis-1"),  # the first start: no Sentinel yet
        ("NOAUTH Authentication required.\\n", "redis-1"),  # no answer either
        ("redis-2\\n6379\\n", "redis-2"),  # after a failover
    ],
)
def test_a_data_server_starts_as_a_replica_of_the_primary_the_sentinels_name(
    tmp_path: Path, sentinels_say: str | None, primary: str
) -> None:
    for name in DATA_SERVERS:
        conf = started(tmp_path, name, sentinels_say)
        lines = conf.splitlines()
        assert lines[0] == f"include {MOUNTED}/redis.conf"  # first, so a rewrite keeps it
        assert f"requirepass {PASSWORD}" in lines and f"masterauth {PASSWORD}" in lines
        assert f"replica-announce-ip {name}" in lines
        assert "maxmemory 256mb" in lines
        replica_of = [line for line in lines if line.startswith("replicaof ")]
        assert replica_of == ([] if name == primary else [f"replicaof {primary} 6379"]), name


class Running:
    """The bundled redis-server run with a file of deploy/ (as the image runs it) on loopback."""

    def __init__(self, conf: Path, data: Path, *extra: str) -> None:
        self.port = free_port()
        data.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [
                *(redis_binary(), str(conf), *extra),
                *("--port", str(self.port), "--bind", "127.0.0.1"),
                *("--dir", str(data), "--logfile", str(data / "log")),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=die_with_parent,
        )
        deadline = time.monotonic() + 10
        try:
            while ask(self.port, "ping") != b"PONG":
                assert self.process.poll() is None, f"redis-server exited: see {data / 'log'}"
                assert time.monotonic() < deadline, "redis-server did not answer"
                time.sleep(0.05)
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


def test_redis_takes_the_files_a_lone_primary_refuses_writes_and_sentinel_names_by_name(
    tmp_path: Path,
) -> None:
    if why := can_start(tmp_path):
        pytest.skip(why)
    server = Running(DEPLOY / "redis.conf", tmp_path / "server")
    try:
        said = ask(server.port, "config", "get", "min-replicas-*").split(b"\n")
        assert dict(zip(said[::2], said[1::2], strict=True)) == {
            b"min-replicas-to-write": b"1",
            b"min-replicas-max-lag": b"10",
        }
        assert ask(server.port, "config", "get", "appendonly").split(b"\n")[1] == b"yes"
        # No replica: the primary refuses the write rather than acknowledge what may be lost.
        assert ask(server.port, "set", "k", "v").startswith(b"NOREPLICAS")
        # A Sentinel from sentinel.conf, monitoring this server by a name (as `redis-1` on the
        # compose network), answers with the name.
        sentinel_conf = tmp_path / "sentinel.conf"
        text = (DEPLOY / "sentinel.conf").read_text()
        # Its `dir` is the container's /data: here, a folder of the test's.
        text = re.sub(r"(?m)^dir .*$", f"dir {tmp_path}", text)
        sentinel_conf.write_text(
            re.sub(
                r"(?m)^sentinel monitor (\S+) \S+ \d+",
                rf"sentinel monitor \1 localhost {server.port}",
                text,
            )
        )
        sentinel = Running(sentinel_conf, tmp_path / "sentinel", "--sentinel")
        try:
            named = ask(sentinel.port, "sentinel", "get-master-addr-by-name", "kronikas").split()
            assert named == [b"localhost", str(server.port).encode()]
        finally:
            sentinel.stop()
    finally:
        server.stop()
