-- List a new table in the lobby: in the index of every filter it matches, newest first.
-- A table's first append lists it as it is made on one server (append.lua, the same scores);
-- this lists it after its first append on a Redis Cluster, and a table an older version made.
-- KEYS[1] the index of all tables   KEYS[2] the set of index names (which `lobby_drop` clears)
-- KEYS[3 ..] the table's other indexes: its kind, its status, its kind and status
-- ARGV[1] the table id   ARGV[2] its creation time (ms)
-- The score is created_ms * 1024 + n, n = 1 + the highest n already listed in that millisecond
-- (at most 1023): ties in a millisecond follow the order of listing, not the random id. Integers
-- up to 2^53 are exact in a score; created_ms * 1024 stays below that until the year 2248.
local base = tonumber(ARGV[2]) * 1024
local top = redis.call('ZREVRANGEBYSCORE', KEYS[1], string.format('%.0f', base + 1023),
  string.format('%.0f', base), 'WITHSCORES', 'LIMIT', 0, 1)
local n = 1
if top[2] then
  n = math.min(1023, tonumber(top[2]) - base + 1)
end
local score = string.format('%.0f', base + n)
redis.call('ZADD', KEYS[1], score, ARGV[1])
redis.call('SADD', KEYS[2], KEYS[1])
for i = 3, #KEYS do
  redis.call('ZADD', KEYS[i], score, ARGV[1])
  redis.call('SADD', KEYS[2], KEYS[i])
end
return score
