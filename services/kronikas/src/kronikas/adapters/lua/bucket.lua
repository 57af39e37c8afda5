-- Token buckets: take n tokens from each of KEYS, from every one or from none.
-- KEYS[1 ..] the buckets (hashes)   ARGV[1] now (ms)   ARGV[2] n
-- ARGV[1 + 2i] the rate per second of KEYS[i]   ARGV[2 + 2i] its burst
-- A bucket gives at most its burst at once: a request dearer than a full bucket waits for a full
-- one (application/queries.py, `read_cost`, keeps a read's cost well below any burst).
-- Returns 0 when taken, else the milliseconds until every bucket holds what it gives.
local now = tonumber(ARGV[1])
local n = tonumber(ARGV[2])
local wait = 0
local left = {}
for i = 1, #KEYS do
  local rate = tonumber(ARGV[1 + 2 * i])
  local burst = tonumber(ARGV[2 + 2 * i])
  local take = math.min(n, burst)
  local bucket = redis.call('HMGET', KEYS[i], 'tokens', 'at')
  local tokens = tonumber(bucket[1]) or burst
  local at = tonumber(bucket[2]) or now
  tokens = math.min(burst, tokens + (now - at) * rate / 1000)
  if tokens < take then
    wait = math.max(wait, math.ceil((take - tokens) * 1000 / rate))
  end
  left[i] = tokens - take
end
if wait > 0 then
  return wait
end
for i = 1, #KEYS do
  local rate = tonumber(ARGV[1 + 2 * i])
  local burst = tonumber(ARGV[2 + 2 * i])
  redis.call('HSET', KEYS[i], 'tokens', left[i], 'at', now)
  redis.call('PEXPIRE', KEYS[i], math.ceil(burst * 1000 / rate) + 1000)
end
return 0
