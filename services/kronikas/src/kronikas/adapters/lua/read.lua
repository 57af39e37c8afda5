-- Read a game: its version, the caller's role, and the events after a version.
-- KEYS[1] log (list)   KEYS[2] auth (hash)   KEYS[3] the token's rate bucket (hash)
-- KEYS[4] (optional) the client address's ceiling bucket (hash), which the read also takes from
-- ARGV[1] after   ARGV[2] token hash ("" for none)   ARGV[3] now (ms)
-- ARGV[4] rate per second (0: no limit)   ARGV[5] burst   ARGV[6] max events to return
-- ARGV[7] n: what the read costs (application/queries.py, `read_cost`)
-- ARGV[8] the ceiling's rate per second   ARGV[9] its burst (with KEYS[4])
-- Returns {version, role ("" unknown), retry_after_ms (0: allowed), event...}; refused,
-- {0, "", retry_after_ms, "address"} when the ceiling is short, else {0, "", retry_after_ms}
-- The role is looked up first: only a token this table knows takes from a bucket of its own
-- (one a made-up token would make for nothing); the caller charges an unknown token's request
-- to its client's address. A known token's read takes n from its bucket and from the ceiling,
-- from both or from neither (as bucket.lua: a bucket gives at most its burst at once).
local version = redis.call('LLEN', KEYS[1])
local role = ''
if ARGV[2] ~= '' then
  role = redis.call('HGET', KEYS[2], ARGV[2]) or ''
end
local rate = tonumber(ARGV[4])
if rate > 0 and role ~= '' then
  local now = tonumber(ARGV[3])
  local n = tonumber(ARGV[7]) or 1
  local buckets = {{KEYS[3], rate, tonumber(ARGV[5])}}
  if #KEYS > 3 then
    buckets[2] = {KEYS[4], tonumber(ARGV[8]), tonumber(ARGV[9])}
  end
  local wait = 0
  local address = false
  for i = 1, #buckets do
    local b = buckets[i]
    local take = math.min(n, b[3])
    local bucket = redis.call('HMGET', b[1], 'tokens', 'at')
    local tokens = tonumber(bucket[1]) or b[3]
    local at = tonumber(bucket[2]) or now
    tokens = math.min(b[3], tokens + (now - at) * b[2] / 1000)
    if tokens < take then
      wait = math.max(wait, math.ceil((take - tokens) * 1000 / b[2]))
      address = address or i == 2
    end
    b[4] = tokens - take
  end
  if address then
    return {0, '', wait, 'address'}
  elseif wait > 0 then
    return {0, '', wait}
  end
  -- pcall: a Redis full to its maxmemory refuses the write, and the read goes on uncharged
  -- (every change is refused by its own write then, so nothing grows).
  for i = 1, #buckets do
    local b = buckets[i]
    local charged = redis.pcall('HSET', b[1], 'tokens', b[4], 'at', now)
    if type(charged) == 'table' and charged.err then
      break
    end
    redis.call('PEXPIRE', b[1], math.ceil(b[3] * 1000 / b[2]) + 1000)
  end
end
local reply = {version, role, 0}
local after = tonumber(ARGV[1])
local limit = tonumber(ARGV[6])
if after < version and limit > 0 then
  local last = math.min(version, after + limit) - 1
  local events = redis.call('LRANGE', KEYS[1], after, last)
  for i = 1, #events do reply[#reply + 1] = events[i] end
end
return reply
