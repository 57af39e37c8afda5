-- Append a command's events to a game's log: all or none, only at the expected version.
-- KEYS[1] log (list)   KEYS[2] meta (hash)   KEYS[3] auth (hash: token hash -> role)
-- KEYS[4] rate bucket (hash)
-- KEYS[5 ..] on a table's first append, to list it in the lobby as it is made (one server only:
--         the lobby's keys are on a slot of their own): the index of all tables, the set of index
--         names, and the table's other indexes (lobby_add.lua's KEYS; its scores, made the same way)
-- ARGV[1] expected version   ARGV[2] ttl seconds   ARGV[3] the lobby summary after the append
-- ARGV[4] now (ms)   ARGV[5] rate per second (0: no limit)   ARGV[6] burst
-- ARGV[7] the channel on which the append is published ("kr:notify:<game id>"): the new version,
--         then each appended event, each after a newline (stored events are JSON: no raw newline);
--         "" with WRITE_REPLICAS: published after the replicas have it (ack.lua), not here, and a
--         conflict's reply says the version acknowledged ("acked" in meta) after its version
-- ARGV[8] the table's status after the append (in the summary too)
-- ARGV[9] the table id to list in the lobby ("": not listed here)   ARGV[10] its creation (ms)
-- ARGV[11] n: auth entries that follow as pairs   ARGV[12 .. 11+2n] token hash, role
-- ARGV[12+2n ..] the events, in order
-- The version is checked first: a conflict takes no rate token (the caller decides again on the
-- events it is answered, and a retry whose idempotency key they record is answered from them).
-- A refused append writes nothing: the rate bucket is the first write, and Redis refuses a
-- script's first write when it is out of memory, never a later one. An idempotency key is no
-- key here: its record is the append's first event (application/tables.py, `Keys`).
-- Every key of the game lives `ttl` seconds after its last append, give or take a minute: the
-- expiries are set again only when that moves them by more than a minute (or auth was written,
-- or the log starts), which spares four commands on most appends.
-- Returns version (a number: the append was made) | {"conflict", version, event...}
--       | {"conflict", version, acked, event...} with WRITE_REPLICAS (ARGV[7] "")
--       | {"limited", retry_after_ms}
--       | {"ok", version, listed} when the lobby's indexes hold this table under another status
--         than the summary's: `listed` is the meta's 'listed' field, the status they were last
--         told ("" when never told); the caller moves the table and records the new status
--         (adapters/event_store.py). Not on the first append, which lists the table.
local expected = tonumber(ARGV[1])
local version = redis.call('LLEN', KEYS[1])
if version ~= expected then
  local reply = {'conflict', version}
  if ARGV[7] == '' then
    reply[3] = math.min(version, tonumber(redis.call('HGET', KEYS[2], 'acked')) or 0)
  end
  if expected < version then
    local tail = redis.call('LRANGE', KEYS[1], expected, -1)
    for i = 1, #tail do reply[#reply + 1] = tail[i] end
  end
  return reply
end
local now = tonumber(ARGV[4])
local rate = tonumber(ARGV[5])
if rate > 0 then
  local burst = tonumber(ARGV[6])
  local bucket = redis.call('HMGET', KEYS[4], 'tokens', 'at')
  local tokens = tonumber(bucket[1]) or burst
  local at = tonumber(bucket[2]) or now
  -- Calls reach Redis out of the order their `now` was read in (two processes, a queue behind
  -- a WAIT): an earlier `now` refills nothing, and never takes back what a later one gave.
  tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
  if tokens < 1 then
    return {'limited', math.ceil((1 - tokens) * 1000 / rate)}
  end
  redis.call('HSET', KEYS[4], 'tokens', tokens - 1, 'at', math.max(now, at))
  redis.call('PEXPIRE', KEYS[4], math.ceil(burst * 1000 / rate) + 1000)
end
local n = tonumber(ARGV[11])
local first = 12 + 2 * n
if first <= #ARGV then
  version = redis.call('RPUSH', KEYS[1], unpack(ARGV, first, #ARGV))
end
for i = 0, n - 1 do
  redis.call('HSET', KEYS[3], ARGV[12 + 2 * i], ARGV[13 + 2 * i])
end
local ttl = tonumber(ARGV[2])
local meta = redis.call('HMGET', KEYS[2], 'listed', 'until')
local listed = meta[1]
local kept = tonumber(meta[2])
local until_s = math.floor(now / 1000) + ttl
if n > 0 or expected == 0 or not kept or math.abs(until_s - kept) > 60 then
  redis.call('HSET', KEYS[2], 'version', version, 'summary', ARGV[3], 'until', until_s)
  redis.call('EXPIRE', KEYS[1], ttl)
  redis.call('EXPIRE', KEYS[2], ttl)
  if redis.call('EXISTS', KEYS[3]) == 1 then
    redis.call('EXPIRE', KEYS[3], ttl)
  end
else
  redis.call('HSET', KEYS[2], 'version', version, 'summary', ARGV[3])
end
if ARGV[9] ~= '' then
  -- Listed as it is made (lobby_add.lua, the same score): a table is never made unlisted.
  local base = tonumber(ARGV[10]) * 1024
  local top = redis.call('ZREVRANGEBYSCORE', KEYS[5], string.format('%.0f', base + 1023),
    string.format('%.0f', base), 'WITHSCORES', 'LIMIT', 0, 1)
  local rank = 1
  if top[2] then
    rank = math.min(1023, tonumber(top[2]) - base + 1)
  end
  local score = string.format('%.0f', base + rank)
  redis.call('ZADD', KEYS[5], score, ARGV[9])
  redis.call('SADD', KEYS[6], KEYS[5])
  for i = 7, #KEYS do
    redis.call('ZADD', KEYS[i], score, ARGV[9])
    redis.call('SADD', KEYS[6], KEYS[i])
  end
  redis.call('HSET', KEYS[2], 'listed', ARGV[8])
  listed = ARGV[8]
end
if ARGV[7] == '' then
  -- published by ack.lua, once the replicas have it
elseif first <= #ARGV then
  redis.call('PUBLISH', ARGV[7], version .. '\n' .. table.concat(ARGV, '\n', first, #ARGV))
else
  redis.call('PUBLISH', ARGV[7], version)
end
if expected > 0 and listed ~= ARGV[8] then
  return {'ok', version, listed or ''}
end
-- A number, not a table: Redis 6 writes each table reply with a system call of its own (it
-- writes a table's length after its elements), where the numbers a pipeline's scripts answer
-- leave together.
return version
