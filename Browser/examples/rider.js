// The example rider page: logs in, gets consumer tokens through the token server's
// /sdk/fleetauth.js, and follows one trip on the local Fleet Engine's REST door. No token is
// ever written into the page or the console.

const form = document.getElementById("login");
const params = new URLSearchParams(location.search);
const pollMilliseconds = Math.max(100, Number(params.get("poll")) || 2000);
const defaults = {
  tokenServer: location.origin,
  fleetEngine: `${location.protocol}//${location.hostname}:8081`,
  provider: "local-project",
  username: "",
  tripId: "",
};
for (const [name, fallback] of Object.entries(defaults)) form.elements[name].value = params.get(name) ?? fallback;

function show(id, text) {
  document.getElementById(id).textContent = text;
}

function fail(message) {
  const error = document.getElementById("error");
  error.textContent = message;
  error.hidden = false;
}

/** Logs in with username and password; resolves to the session token, kept in memory only. */
async function logIn(tokenServer, username, password) {
  const response = await fetch(new URL("v1/sessions", tokenServer), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`login refused: ${body?.error?.message ?? `HTTP ${response.status}`}`);
  return body.sessionToken;
}

/** A Fleet Engine REST call with a token from `fetcher`; rejects with Fleet Engine's message. */
async function fleetEngine(fetcher, tripId, url, init = {}) {
  const { token } = await fetcher({ context: { tripId } });
  const response = await fetch(url, { ...init, headers: { ...init.headers, Authorization: `Bearer ${token}` } });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`Fleet Engine refused (${response.status}): ${body?.error?.message ?? "no message"}`);
  return body;
}

/** The trip's vehicle as a consumer may see it: a search around the pickup point, whose
 * positions Fleet Engine rounds for consumers. */
async function findVehicle(fetcher, tripId, base, trip) {
  const point = trip.pickupPoint?.point;
  if (!trip.vehicleId || !point) return null;
  const search = await fleetEngine(fetcher, tripId, `${base}/vehicles:search`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      pickupPoint: { point },
      pickupRadiusMeters: 10000,
      count: 50,
      minimumCapacity: 1,
      tripTypes: [trip.tripType && trip.tripType !== "UNKNOWN_TRIP_TYPE" ? trip.tripType : "EXCLUSIVE"],
      vehicleTypes: ["AUTO", "TAXI", "TRUCK", "TWO_WHEELER", "BICYCLE", "PEDESTRIAN"].map((category) => ({ category })),
      orderBy: "PICKUP_POINT_STRAIGHT_DISTANCE",
      currentTripsPresent: "ANY",
    }),
  });
  const match = (search.matches ?? []).find((m) => m.vehicle?.name?.endsWith(`/vehicles/${trip.vehicleId}`));
  return match?.vehicle?.lastLocation?.location ?? null;
}

/** Whether the page may send the rider's password to `address`: its own origin, or a server on
 * this computer (where `serve` and `demo` run). A link to this page cannot point the login at
 * anyone else's server. */
function mayLogInAt(address) {
  const url = new URL(address);
  return url.origin === location.origin || ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
}

/** Counts the trips followed, so that a second submit stops the first one's polling. */
let following = 0;

async function follow(event) {
  event.preventDefault();
  const values = Object.fromEntries(new FormData(form));
  const mine = ++following;
  document.getElementById("error").hidden = true;
  try {
    if (!mayLogInAt(values.tokenServer)) throw new Error(`this example logs in only at its own origin or on this computer, not at ${values.tokenServer}`);
    const { createAuthTokenFetcher } = await import(new URL("/sdk/fleetauth.js", values.tokenServer).href);
    const session = await logIn(values.tokenServer, values.username, values.password);
    form.elements.password.value = "";
    const fetcher = createAuthTokenFetcher({
      baseURL: values.tokenServer,
      kind: "consumer",
      authorize: async () => `Bearer ${session}`,
    });
    const base = new URL(`v1/providers/${encodeURIComponent(values.provider)}`, values.fleetEngine).href;
    show("trip-id", values.tripId);
    document.getElementById("trip").hidden = false;
    const read = async () => {
      const trip = await fleetEngine(fetcher, values.tripId, `${base}/trips/${encodeURIComponent(values.tripId)}`);
      show("trip-status", trip.tripStatus ?? "UNKNOWN_TRIP_STATUS");
      show("vehicle-id", trip.vehicleId || "none yet");
      const position = await findVehicle(fetcher, values.tripId, base, trip);
      const place = document.getElementById("vehicle-position");
      place.textContent = position ? `${position.latitude.toFixed(3)}, ${position.longitude.toFixed(3)} (to about 500 m)` : "not known";
      place.dataset.lat = position?.latitude ?? "";
      place.dataset.lng = position?.longitude ?? "";
      show("read-at", new Date().toLocaleTimeString());
    };
    const poll = async () => {
      if (mine !== following) return;
      try {
        await read();
        setTimeout(poll, pollMilliseconds);
      } catch (error) {
        fail(error.message);
      }
    };
    await poll();
  } catch (error) {
    fail(error.message);
  }
}

form.addEventListener("submit", follow);
document.body.dataset.ready = "true";
