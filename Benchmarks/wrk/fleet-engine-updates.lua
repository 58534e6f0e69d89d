-- wrk script of `fleetauth-bench fleet-engine`: durable location updates.
--
-- Arguments: the project, the run, the file of driver tokens (one per line in vehicle order),
-- wrk's thread count, and the collection: `vehicles` (PUT, UpdateVehicle) or `deliveryVehicles`
-- (PATCH, UpdateDeliveryVehicle). Thread t drives the vehicles whose index is t modulo that count; a
-- vehicle goes back in the queue when its answer names it. report() prints, per vehicle, the
-- highest step acknowledged and the last step sent.

threads = {}
function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

acked, sent = {}, {}
local queue, head, tail = {}, 1, 0
local targets = {}
local base
local body = '{"lastLocation":{"location":{"latitude":%d.%07d,"longitude":13.405},"heading":90,"speed":8.5,"updateTime":"2026-11-21T16:30:00Z"}}'

function init(args)
  base = 10 + tonumber(args[2])
  local collection = args[5] or "vehicles"
  local method = collection == "deliveryVehicles" and "PATCH" or "PUT"
  local index = 0
  for token in io.lines(args[3]) do
    if index % tonumber(args[4]) == id then
      -- The request up to its Content-Length, built once.
      targets[index] = string.format(
        "%s /v1/providers/%s/%s/bench-%d?updateMask=lastLocation HTTP/1.1\r\nHost: %s\r\n"
          .. "Authorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: ",
        method, args[1], collection, index, wrk.headers["Host"], token)
      tail = tail + 1
      queue[tail] = index
    end
    index = index + 1
  end
end

local function with_body(head, text)
  return head .. #text .. "\r\n\r\n" .. text
end

-- wrk calls request() once on thread 0 to check what it returns, and never sends that one.
local checked = false

function request()
  if id == 0 and not checked then
    checked = true
    return with_body(targets[queue[head]], string.format(body, base, 0))
  end
  local index = id -- only when every vehicle is in flight or was lost to an error
  if head <= tail then
    index = queue[head]
    queue[head] = nil
    head = head + 1
  end
  local step = (sent[index] or 0) + 1
  sent[index] = step
  return with_body(targets[index], string.format(body, base, step))
end

function response(status, headers, answer)
  if status ~= 200 then return end
  local index = tonumber(string.match(answer, '"name":"providers/[^"/]*/%a+/bench%-(%d+)"'))
  local latitude = tonumber(string.match(answer, '"latitude":([-%d.eE+]+)'))
  if not index or not latitude then return end
  local step = math.floor((latitude - base) * 1e7 + 0.5)
  if step > (acked[index] or 0) then acked[index] = step end
  tail = tail + 1
  queue[tail] = index
end

function report()
  for _, thread in ipairs(threads) do
    local sent = thread:get("sent")
    for index, step in pairs(thread:get("acked")) do
      io.write(string.format("report %d %d %d\n", index, step, sent[index]))
    end
  end
end
