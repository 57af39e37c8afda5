-- Drop expired tables from every lobby index.
-- KEYS every index (the members of the set of index names, and the index of all tables)
-- ARGV the table ids
for i = 1, #KEYS do
  redis.call('ZREM', KEYS[i], unpack(ARGV))
end
return #ARGV
