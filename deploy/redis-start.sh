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
conf=/tmp/redis.conf
{
    echo "include /usr/local/etc/kronikas/redis.conf"
    printf 'requirepass %s\nmasterauth %s\n' "$REDIS_PASSWORD" "$REDIS_PASSWORD"
    printf 'maxmemory %s\n' "$REDIS_MAXMEMORY"
    printf 'replica-announce-ip %s\n' "$self"
} >"$conf"
primary=""
for sentinel in sentinel-1 sentinel-2 sentinel-3; do
    named=$(REDISCLI_AUTH="$REDIS_PASSWORD" timeout 2 redis-cli -h "$sentinel" -p 26379 \
        sentinel get-master-addr-by-name kronikas 2>/dev/null | head -n 1) || true
    if [ -n "$named" ]; then
        primary=$named
        break
    fi
done
primary=${primary:-$first}
if [ "$primary" != "$self" ]; then
    printf 'replicaof %s 6379\n' "$primary" >>"$conf"
fi
# Sentinel rewrites this file (CONFIG REWRITE) when it moves the role: Redis's user owns it.
chown redis "$conf"
exec docker-entrypoint.sh redis-server "$conf"
