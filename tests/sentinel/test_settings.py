"""What `REDIS_SENTINELS` asks of the other settings: no Redis Cluster beside it, and a
`REDIS_URL` that names no server (only the servers' password and database), or none."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kronikas.adapters.redis_client import connect
from kronikas.adapters.sentinel import credentials, not_primary
from kronikas.config import Settings


def test_sentinels_and_a_cluster_are_refused_at_start() -> None:
    env = {"REDIS_SENTINELS": "127.0.0.1:26379", "REDIS_CLUSTER": "1"}
    with pytest.raises(ValueError, match="REDIS_SENTINELS and REDIS_CLUSTER exclude each other"):
        Settings.from_env(env)
    with pytest.raises(ValueError, match="exclude each other"):
        connect(Settings(redis_sentinels=(("127.0.0.1", 26379),), redis_cluster=True))


def test_sentinels_are_host_port_pairs() -> None:
    env = {"REDIS_SENTINELS": "10.0.0.1:26379, [::1]:26380", "REDIS_SENTINEL_MASTER": "cards"}
    read = Settings.from_env(env)
    assert read.redis_sentinels == (("10.0.0.1", 26379), ("::1", 26380))
    assert read.redis_sentinel_master == "cards"
    with pytest.raises(ValueError, match="host:port"):
        Settings.from_env({"REDIS_SENTINELS": "10.0.0.1"})


def test_redis_url_gives_the_servers_password_and_database_only() -> None:
    assert credentials(None) == {}
    assert credentials("redis://:s%40cret@/2") == {"password": "s@cret", "db": 2}
    assert credentials("rediss://app:pw@") == {"username": "app", "password": "pw", "ssl": True}
    for named in ("redis://10.0.0.5:6379/0", "redis://:pw@primary/0", "unix:///tmp/redis.sock"):
        with pytest.raises(ValueError, match="REDIS_URL may give only"):
            credentials(named)


def test_the_service_says_what_is_wrong_and_stops() -> None:
    env = {
        "REDIS_SENTINELS": "127.0.0.1:1",
        "REDIS_URL": "redis://127.0.0.1:6379/0",
        "PORT": "0",
        "PATH": "/usr/bin:/bin",
    }
    done = subprocess.run(
        [sys.executable, "-m", "kronikas.serve"], env=env, capture_output=True, timeout=60
    )
    assert done.returncode == 2
    assert b"configuration error: with REDIS_SENTINELS" in done.stderr, done.stderr
    env |= {"REDIS_URL": "", "REDIS_CLUSTER": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "kronikas.serve"], env=env, capture_output=True, timeout=60
    )
    assert done.returncode == 2
    assert b"exclude each other" in done.stderr, done.stderr


def test_refusals_of_a_server_that_cannot_write_are_known() -> None:
    assert not_primary("READONLY You can't write against a read only replica.")
    assert not_primary("NOREPLICAS Not enough good replicas to write.")
    assert not_primary(
        "ERR Error running script (call to f_0a1b): @user_script:12: @user_script: 12: "
        "-READONLY You can't write against a read only replica."
    )
    assert not_primary("LOADING Redis is loading the dataset in memory")
    assert not not_primary("ERR wrong number of arguments for 'evalsha' command")
    assert not not_primary("OOM command not allowed when used memory > 'maxmemory'.")
