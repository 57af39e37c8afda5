-- After a WAIT confirmed that the replicas have a game's log up to a version (WRITE_REPLICAS):
-- the version raised in meta's "acked" (never lowered: acknowledgements of one table from
-- several processes may arrive out of order), and the notice the append left out published.
-- KEYS[1] meta (hash)
-- ARGV[1] the version acknowledged   ARGV[2] the game's channel   ARGV[3] the notice (append.lua)
-- A meta that expired is not made again (it would have no expiry).
if redis.call('EXISTS', KEYS[1]) == 1 then
  local acked = tonumber(redis.call('HGET', KEYS[1], 'acked')) or 0
  if acked < tonumber(ARGV[1]) then
    redis.call('HSET', KEYS[1], 'acked', ARGV[1])
  end
end
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
