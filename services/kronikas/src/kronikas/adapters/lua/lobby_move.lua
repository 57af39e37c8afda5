-- Move a listed table into the indexes of its new status; add first, then leave the old ones.
-- KEYS[1] the index of all tables (the table's score)   KEYS[2] the set of index names
-- KEYS[3], KEYS[4] the indexes to enter   KEYS[5 ..] the indexes to leave
-- ARGV[1] the table id
-- Returns 1, or 0 when the table is not listed (never registered, or dropped as expired).
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score then
  return 0
end
for i = 3, 4 do
  redis.call('ZADD', KEYS[i], score, ARGV[1])
  redis.call('SADD', KEYS[2], KEYS[i])
end
for i = 5, #KEYS do
  redis.call('ZREM', KEYS[i], ARGV[1])
end
return 1
