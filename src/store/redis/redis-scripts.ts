/**
 * The Lua scripts of the Redis coordinator. Redis runs a script as one
 * command, so each read-decide-write below is atomic across every worker.
 * A lock or record value is the owner's random token, so only the owner
 * can extend, complete or release what it took (never a plain DEL).
 */

/** KEYS[1] lock; ARGV token. Deletes the lock only while it is still ours. */
export const RELEASE_LOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** KEYS[1] lock; ARGV token, ttl. Extends the lock only while it is still ours. */
export const EXTEND_LOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

/**
 * KEYS the records of one turn's claims; ARGV each one's token and lease,
 * in pairs. Each key in order: 'claimed' when it was free (or already held
 * by this token: a command resent after a reconnect), 'done', or
 * 'in_flight' while another token holds it.
 */
export const CLAIM_MANY = `
local outcomes = {}
for i = 1, #KEYS do
  local mine = 'c:' .. ARGV[2 * i - 1]
  if redis.call('SET', KEYS[i], mine, 'NX', 'PX', ARGV[2 * i]) then
    outcomes[i] = 'claimed'
  else
    local value = redis.call('GET', KEYS[i])
    if value == mine then outcomes[i] = 'claimed'
    elseif value and string.sub(value, 1, 2) == 'd:' then outcomes[i] = 'done'
    else outcomes[i] = 'in_flight' end
  end
end
return outcomes`;

/** KEYS the records of one turn's done marks; ARGV each one's token and TTL, in pairs. Each key `done` for its TTL. */
export const COMPLETE_MANY = `
for i = 1, #KEYS do
  redis.call('SET', KEYS[i], 'd:' .. ARGV[2 * i - 1], 'PX', ARGV[2 * i])
end
return #KEYS`;

/** KEYS[1] record; ARGV token, lease. Gives a claim a fresh lease only while it is still ours. */
export const RENEW_CLAIM = `
if redis.call('GET', KEYS[1]) == 'c:' .. ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

/** KEYS[1] record; ARGV token. Forgets a claim only while it is still ours. */
export const RELEASE_CLAIM = `
if redis.call('GET', KEYS[1]) == 'c:' .. ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * KEYS[1] record; ARGV token, ttl. 1 the first time. A command resent after a
 * reconnect finds its own token and still answers 1, so a lost reply never
 * turns a first time into a duplicate.
 */
export const MARK_ONCE = `
if redis.call('SET', KEYS[1], 'd:' .. ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('GET', KEYS[1]) == 'd:' .. ARGV[1] then return 1 end
return 0`;

/**
 * KEYS[1] counter, KEYS[2] the ids of additions already made; ARGV amount,
 * limit, ttl, addition id. Adds when the total stays within the limit (a
 * negative amount always gives back). An addition whose id was already made
 * (a command resent after a reconnect) is not made twice.
 */
export const ADD_WITHIN_LIMIT = `
local total = tonumber(redis.call('GET', KEYS[1]) or '0')
local amount = tonumber(ARGV[1])
if redis.call('SADD', KEYS[2], ARGV[4]) == 0 then return {1, tostring(total)} end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
if amount > 0 and total + amount > tonumber(ARGV[2]) then
  redis.call('SREM', KEYS[2], ARGV[4])
  return {0, tostring(total)}
end
total = tonumber(redis.call('INCRBYFLOAT', KEYS[1], ARGV[1]))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {1, tostring(total)}`;

/** KEYS[1] value; ARGV expected ('' = absent), next, ttl, whether an expected value was given. */
export const COMPARE_AND_SET = `
local value = redis.call('GET', KEYS[1])
if ARGV[4] == '1' then
  if value ~= ARGV[1] then return 0 end
elseif value then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`;

/** Loads the windows of a quota hash into a table and the order of their names. */
const LOAD_WINDOWS = `
local raw = redis.call('HGETALL', KEYS[1])
local windows, names = {}, {}
for i = 1, #raw, 2 do
  windows[raw[i]] = cjson.decode(raw[i + 1])
  names[#names + 1] = raw[i]
end`;

/**
 * KEYS[1] quota hash (one field per window), KEYS[2] requests in flight
 * (a sorted set by real send time); ARGV now, ttl, probe pause, in-flight
 * poll, real now, in-flight expiry, a member for this request. 0 when the
 * request may go (it is then in flight), else the time to look again. The
 * same steps as `takeFromWindows` in quota-rules.ts.
 */
export const TAKE_QUOTA = `${LOAD_WINDOWS}
local now, ttl, probe, poll = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', tonumber(ARGV[5]) - tonumber(ARGV[6]))
local inFlight = redis.call('ZCARD', KEYS[2])
local retryAt = 0
for _, name in ipairs(names) do
  local w = windows[name]
  if w.t and w.t <= now then
    if w.l == nil then w = nil else w = { r = w.l, l = w.l, after = w.t } end
  elseif w.p and w.p <= now then
    w = nil
  end
  windows[name] = w
  if w == nil then redis.call('HDEL', KEYS[1], name)
  else
    if w.r - inFlight <= 0 then
      if inFlight > 0 then retryAt = math.max(retryAt, now + poll)
      elseif w.t then retryAt = math.max(retryAt, w.t)
      else
        if not w.p then w.p = now + probe end
        retryAt = math.max(retryAt, w.p)
      end
    end
    redis.call('HSET', KEYS[1], name, cjson.encode(w))
  end
end
if #names > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
if retryAt > now then return retryAt end
redis.call('ZADD', KEYS[2], ARGV[5], ARGV[7])
redis.call('PEXPIRE', KEYS[2], ttl)
return 0`;

/**
 * KEYS[1] quota hash, KEYS[2] requests in flight; ARGV now, ttl, settles
 * ('1' = the answer of a request let through, which leaves the flight),
 * tolerance, refill tolerance, then name, remaining, limit ('' = unknown), reset ('' =
 * unknown) for each window. The same steps as `observeIntoWindow`.
 */
export const OBSERVE_QUOTA = `
local now, ttl, tolerance, refillTolerance = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[4]), tonumber(ARGV[5])
if ARGV[3] == '1' then redis.call('ZPOPMIN', KEYS[2]) end
for i = 6, #ARGV, 4 do
  local name = ARGV[i]
  local remaining, limit, reset = tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2]), tonumber(ARGV[i + 3])
  local raw = redis.call('HGET', KEYS[1], name)
  local current = raw and cjson.decode(raw) or nil
  if limit == nil and current then limit = current.l end
  local fresh = { r = remaining, l = limit, t = reset }
  local nextWindow = fresh
  if current then
    if reset == nil then
      current.r = math.min(current.r, remaining)
      nextWindow = current
    elseif reset <= now then
      nextWindow = nil
    elseif current.t == nil then
      if current.after and reset <= current.after + refillTolerance then nextWindow = nil
      else fresh.r = math.min(current.r, remaining) end
    elseif reset > current.t + tolerance then
      if now < current.t then
        current.r = math.min(current.r, remaining)
        nextWindow = current
      end
    elseif reset < current.t - tolerance then
      nextWindow = nil
    else
      fresh.r = math.min(current.r, remaining)
      fresh.t = math.min(current.t, reset)
    end
  end
  if nextWindow ~= nil then
    redis.call('HSET', KEYS[1], name, cjson.encode(nextWindow))
    redis.call('PEXPIRE', KEYS[1], ttl)
  end
end
return 1`;

/**
 * KEYS[1] record hash, KEYS[2] index set; ARGV expected version ('' when the
 * record must not exist yet), public JSON, sealed secrets, key id, record id,
 * new version, format. A compare-and-set: 0 when the stored version is not
 * the expected one.
 */
export const WRITE_RECORD = `
local version = redis.call('HGET', KEYS[1], 'version')
if (version or '') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'public', ARGV[2], 'secrets', ARGV[3], 'kid', ARGV[4], 'version', ARGV[6], 'format', ARGV[7])
redis.call('SADD', KEYS[2], ARGV[5])
return 1`;

/** KEYS[1] record hash, KEYS[2] index set; ARGV record id. */
export const REMOVE_RECORD = `
redis.call('SREM', KEYS[2], ARGV[1])
return redis.call('DEL', KEYS[1])`;

/**
 * KEYS[1] a string (a tenant's wrapped data key), KEYS[2] a hash (a record):
 * both in one round trip, the string false when absent, the hash as its
 * field, value list (empty when absent).
 */
export const READ_VALUE_AND_HASH = `
return {redis.call('GET', KEYS[1]), redis.call('HGETALL', KEYS[2])}`;

/** A hash as HGETALL answers it inside a script (field, value, field, value, ...), as a record. */
export function hashOfPairs(flat: readonly string[]): Record<string, string> {
  const hash: Record<string, string> = {};
  for (let index = 0; index + 1 < flat.length; index += 2)
    hash[flat[index] as string] = flat[index + 1] as string;
  return hash;
}
