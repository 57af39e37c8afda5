-- A token bucket: take n tokens if it holds them.
-- KEYS[1] the bucket (hash)   ARGV[1] now (ms)   ARGV[2] rate per second   ARGV[3] burst
-- ARGV[4] n (1 when absent)
-- A bucket gives at most its burst at once: a request dearer than a full bucket waits for a full
-- one (application/queries.py, `read_cost`, keeps a read's cost well below any burst).
-- Returns 0 when taken, else the milliseconds until the bucket holds what it gives.
local now = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local take = math.min(tonumber(ARGV[4]) or 1, burst)
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(bucket[1]) or burst
local at = tonumber(bucket[2]) or now
-- Calls reach Redis out of the order their `now` was read in (two processes, a queue behind
-- a WAIT): an earlier `now` refills nothing, and never takes back what a later one gave.
tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
if tokens < take then
  return math.ceil((take - tokens) * 1000 / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tokens - take, 'at', math.max(now, at))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
return 0
