-- A token bucket: take one token if there is one.
-- KEYS[1] the bucket (hash)   ARGV[1] now (ms)   ARGV[2] rate per second   ARGV[3] burst
-- Returns 0 when allowed, else the milliseconds until a token is there.
local now = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(bucket[1]) or burst
local at = tonumber(bucket[2]) or now
tokens = math.min(burst, tokens + (now - at) * rate / 1000)
if tokens < 1 then
  return math.ceil((1 - tokens) * 1000 / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tokens - 1, 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
return 0
