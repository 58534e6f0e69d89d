-- wrk script of `fleetauth-bench token-server`: driver token requests rotating over a fleet.
--
-- Argument: a file with one "SESSION_TOKEN VEHICLE_ID" line per driver (kept out of the command
-- line). Every request is `GET /v1/tokens/driver/VEHICLE_ID` with that driver's session as its
-- bearer; each connection walks the list from its own starting point, so consecutive requests
-- name different sessions and vehicles.

local requests = {}
local next_index = 1
local threads_set_up = 0

-- Runs in wrk's main state once per thread: gives each thread its own starting point.
function setup(thread)
  thread:set("first_index", threads_set_up * 997)
  threads_set_up = threads_set_up + 1
end

function init(args)
  for line in io.lines(args[1]) do
    local session, vehicle = line:match("^(%S+) (%S+)$")
    if session then
      requests[#requests + 1] = wrk.format("GET", "/v1/tokens/driver/" .. vehicle, { ["Authorization"] = "Bearer " .. session })
    end
  end
  assert(#requests > 0, "no requests in " .. args[1])
  next_index = ((first_index or 0) % #requests) + 1
end

function request()
  local text = requests[next_index]
  next_index = next_index % #requests + 1
  return text
end
