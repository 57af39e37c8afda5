#!/bin/sh
# Starts one Sentinel of docker-compose.yml's `replicated` profile: sh sentinel-start.sh <its name>
# At its first start it copies this folder's sentinel.conf onto its volume (/data), with the
# name it announces and the passwords: the data servers' (`auth-pass`) and its own
# (`requirepass`, the same: a Sentinel authenticates to the others with its own). From then on
# the file is the Sentinel's memory, which it rewrites: to change the password, remove the
# Sentinels' volumes with the containers (docker compose down -v loses the data too).
set -eu
self=$1
conf=/data/sentinel.conf
umask 077
if [ ! -s "$conf" ]; then
    {
        cat /usr/local/etc/kronikas/sentinel.conf
        printf 'sentinel announce-ip %s\n' "$self"
        printf 'requirepass %s\n' "$REDIS_PASSWORD"
        printf 'sentinel auth-pass kronikas %s\n' "$REDIS_PASSWORD"
    } >"$conf"
fi
chown redis "$conf"
exec docker-entrypoint.sh redis-server "$conf" --sentinel
