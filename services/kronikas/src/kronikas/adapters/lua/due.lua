-- Lease the due tables: those whose deadline is now or before, up to a limit.
-- KEYS[1] the deadlines (sorted set: table id -> epoch ms)
-- ARGV[1] now (ms)   ARGV[2] lease (ms)   ARGV[3] limit
-- Each table taken gets the lease's end as its score, so no other process takes it before then;
-- a process that dies while acting leaves it to be taken again when the lease ends.
-- Returns {lease end, id, id, ...}
local found = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local lease = tonumber(ARGV[1]) + tonumber(ARGV[2])
local reply = {lease}
for i = 1, #found do
  redis.call('ZADD', KEYS[1], lease, found[i])
  reply[#reply + 1] = found[i]
end
return reply
