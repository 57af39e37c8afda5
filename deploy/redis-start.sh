#!/bin/sh
# Starts one data server of docker-compose.yml's `replicated` profile:
#   sh redis-start.sh <its name> <the first primary's name>
# Its configuration is written afresh at each start into a file only Redis's user reads (the
# password stays off the command line, where `ps` would show it): this folder's redis.conf, the
# password, the memory cap, the name it announces and, unless it is the primary, its primary.
# The primary is whichever server the Sentinels name now (a server that comes back after a
# failover rejoins as a replica of the new one); before any Sentinel answers, the first one.
set -eu
self=$1
first=$2
umask 077
conf=${TMPDIR:-/tmp}/redis.conf
{
    echo "include /usr/local/etc/kronikas/redis.conf"
    printf 'requirepass %s\nmasterauth %s\n' "$REDIS_PASSWORD" "$REDIS_PASSWORD"
    printf 'maxmemory %s\n' "$REDIS_MAXMEMORY"
    printf 'replica-announce-ip %s\n' "$self"
} >"$conf"
# A Sentinel answers two lines, the name (they announce names: sentinel.conf) and the port;
# anything else (no answer, an error, none named yet) is no answer.
primary=""
primary_port=6379
for sentinel in sentinel-1 sentinel-2 sentinel-3; do
    said=$(REDISCLI_AUTH="$REDIS_PASSWORD" timeout 2 redis-cli -h "$sentinel" -p 26379 \
        sentinel get-master-addr-by-name kronikas 2>/dev/null) || true
    named=$(printf '%s\n' "$said" | sed -n 1p)
    port=$(printf '%s\n' "$said" | sed -n 2p)
    case "$port" in
        "" | *[!0-9]*) continue ;;
    esac
    primary=$named
    primary_port=$port
    break
done
primary=${primary:-$first}
if [ "$primary" != "$self" ]; then
    printf 'replicaof %s %s\n' "$primary" "$primary_port" >>"$conf"
fi
# Sentinel rewrites this file (CONFIG REWRITE) when it moves the role: Redis's user owns it.
chown redis "$conf"
exec docker-entrypoint.sh redis-server "$conf"
