-- Settle a leased table with its next deadline.
-- KEYS[1] the deadlines (sorted set: table id -> epoch ms)
-- ARGV[1] table id   ARGV[2] the lease's end it was taken with   ARGV[3] next deadline ("": none)
-- While the lease is still the table's score, the next deadline replaces it (or the table
-- leaves the set). Otherwise a deadline was armed meanwhile, or another process took the table
-- after the lease ran out: the earlier deadline stays.
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  if ARGV[3] == '' then
    redis.call('ZREM', KEYS[1], ARGV[1])
  else
    redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
  end
elseif ARGV[3] ~= '' then
  redis.call('ZADD', KEYS[1], 'LT', ARGV[3], ARGV[1])
end
return 1
