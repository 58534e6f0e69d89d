-- wrk script of `fleetauth-bench fleet-engine`: authenticated reads, the engine's floor.
--
-- Arguments: the project, the file of driver tokens and wrk's thread count. Thread t reads
-- the vehicles whose index is t modulo that count, in turn.

local threads = 0
function setup(thread)
  thread:set("id", threads)
  threads = threads + 1
end

local requests, count, next = {}, 0, 0

function init(args)
  local index = 0
  for token in io.lines(args[2]) do
    if index % tonumber(args[3]) == id then
      requests[count] = string.format(
        "GET /v1/providers/%s/vehicles/bench-%d HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n\r\n",
        args[1], index, wrk.headers["Host"], token)
      count = count + 1
    end
    index = index + 1
  end
end

function request()
  next = (next + 1) % count
  return requests[next]
end
