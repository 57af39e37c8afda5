-- Read a game: its version, the caller's role, and the events after a version.
-- KEYS[1] log (list)   KEYS[2] auth (hash)   KEYS[3] the token's rate bucket (hash)
-- ARGV[1] after   ARGV[2] token hash ("" for none)   ARGV[3] now (ms)
-- ARGV[4] rate per second (0: no limit)   ARGV[5] burst   ARGV[6] max events to return
-- ARGV[7] n: what the read costs (application/queries.py, `read_cost`)
-- KEYS[4] with WRITE_REPLICAS: the meta (hash), whose "acked" is the version the replicas are
--         known to have (ack.lua)
-- Returns {version, role ("" unknown), retry_after_ms (0: allowed), event...}
--       | {version, role, 0, acked, event...} with KEYS[4]: the caller shows no event past acked
--         unless the replicas confirm the rest (adapters/event_store.py)
-- The role is looked up first: only a token this table knows takes from a bucket of its own
-- (one a made-up token would make for nothing); the caller charges an unknown token's request
-- to its client's address. A known token's read takes n from its bucket (as bucket.lua: a
-- bucket gives at most its burst at once).
local version = redis.call('LLEN', KEYS[1])
local role = ''
if ARGV[2] ~= '' then
  role = redis.call('HGET', KEYS[2], ARGV[2]) or ''
end
local rate = tonumber(ARGV[4])
if rate > 0 and role ~= '' then
  local now = tonumber(ARGV[3])
  local burst = tonumber(ARGV[5])
  local take = math.min(tonumber(ARGV[7]) or 1, burst)
  local bucket = redis.call('HMGET', KEYS[3], 'tokens', 'at')
  local tokens = tonumber(bucket[1]) or burst
  local at = tonumber(bucket[2]) or now
  -- Calls reach Redis out of the order their `now` was read in (two processes, a queue behind
  -- a WAIT): an earlier `now` refills nothing, and never takes back what a later one gave.
  tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
  if tokens < take then
    return {0, '', math.ceil((take - tokens) * 1000 / rate)}
  end
  -- pcall: a Redis full to its maxmemory refuses the write, and the read goes on uncharged
  -- (every change is refused by its own write then, so nothing grows).
  local charged = redis.pcall('HSET', KEYS[3], 'tokens', tokens - take, 'at', math.max(now, at))
  if type(charged) ~= 'table' or not charged.err then
    redis.call('PEXPIRE', KEYS[3], math.ceil(burst * 1000 / rate) + 1000)
  end
end
local reply = {version, role, 0}
if KEYS[4] then
  reply[4] = math.min(version, tonumber(redis.call('HGET', KEYS[4], 'acked')) or 0)
end
local after = tonumber(ARGV[1])
local limit = tonumber(ARGV[6])
if after < version and limit > 0 then
  local last = math.min(version, after + limit) - 1
  local events = redis.call('LRANGE', KEYS[1], after, last)
  for i = 1, #events do reply[#reply + 1] = events[i] end
end
return reply
