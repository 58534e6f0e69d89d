-- Appended by `fleetauth-bench` (Wrk.swift) to every wrk script: prints the numbers it reads
-- (latencies in microseconds), then the script's own report().

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("fleetauth-wrk-summary %d %d %d %d %d %d %d\n", summary.requests, summary.duration,
    e.status, e.connect + e.read + e.write + e.timeout, latency:percentile(50), latency:percentile(99), latency.max))
  if report then report() end
end
