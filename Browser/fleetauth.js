// FleetAuth for web pages: an `authTokenFetcher` for Google's JavaScript fleet libraries
// (Journey Sharing, Shipment Tracking, Fleet Tracking) that gets its tokens from the FleetAuth
// token server. No dependencies, no build step; served by the token server at /sdk/fleetauth.js.
//
//   import { createAuthTokenFetcher } from "https://tokens.example.com/sdk/fleetauth.js";
//   const authTokenFetcher = createAuthTokenFetcher({
//     baseURL: "https://tokens.example.com",
//     kind: "consumer",
//     authorize: async () => `Bearer ${await currentUser.getIdToken()}`,
//   });
//
// The rules are FleetTokenProvider's (the Swift app side), in the browser:
// - one request in flight per id: any number of calls at once make one request;
// - a token is reused while more than 60 s of it is left (at most a quarter of its life for
//   short tokens);
// - its expiry is counted from the server's `expiresInSeconds`, from the moment the answer
//   arrived, on the page's monotonic clock: a wrong `Date` changes nothing;
// - network errors, timeouts, 5xx and 429 are retried with capped, jittered backoff (429 and
//   503 after the server's `Retry-After`); 401 and 403 are not, and reject with the server's
//   message;
// - nothing is sticky: a failed fetch is forgotten, and the next call asks again.
// Tokens are never logged, and never part of an error's message. The fetcher's `invalidate`
// forgets one id's token (after Fleet Engine answered 401 with it), and `clear` forgets them
// all: call it when the user signs out.

/** The kinds of token the token server hands out, with the route and the id each reads. */
const KINDS = {
  driver: { path: "driver", context: "vehicleId" },
  consumer: { path: "consumer", context: "tripId" },
  "delivery-driver": { path: "delivery-driver", context: "deliveryVehicleId" },
  "delivery-consumer": { path: "delivery-consumer", context: "trackingId" },
  "fleet-reader": { path: "fleet-reader", context: null },
};

/** The defaults, in milliseconds. */
const DEFAULTS = {
  margin: 60_000,
  maxAttempts: 3,
  initialBackoff: 500,
  maxBackoff: 8_000,
  maxRetryAfter: 30_000,
  timeout: 10_000,
  cacheSize: 256,
};

/** A refusal or failure of the token server, with its HTTP status (0 for none). */
export class TokenFetchError extends Error {
  constructor(message, { status = 0, retryable = false, cause } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "TokenFetchError";
    this.status = status;
    this.retryable = retryable;
  }
}

/**
 * Returns `(options) => Promise<{token, expiresInSeconds}>`, the `authTokenFetcher` Google's
 * libraries take. `kind` is one of driver, consumer, delivery-driver, delivery-consumer,
 * fleet-reader; `authorize()` resolves to the `Authorization` header to send (`Bearer …`: the
 * app's session or its ID token). `clock`, `random`, `sleep` and `fetch` may be replaced (tests).
 */
export function createAuthTokenFetcher({
  baseURL,
  kind,
  authorize,
  margin = DEFAULTS.margin,
  maxAttempts = DEFAULTS.maxAttempts,
  initialBackoff = DEFAULTS.initialBackoff,
  maxBackoff = DEFAULTS.maxBackoff,
  maxRetryAfter = DEFAULTS.maxRetryAfter,
  timeout = DEFAULTS.timeout,
  cacheSize = DEFAULTS.cacheSize,
  clock = () => performance.now(),
  random = Math.random,
  sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  fetch: send = (...args) => globalThis.fetch(...args),
} = {}) {
  const route = KINDS[kind];
  if (!route) throw new TypeError(`kind must be one of ${Object.keys(KINDS).join(", ")}; got ${kind}`);
  if (typeof authorize !== "function") throw new TypeError("authorize must be a function that returns the Authorization header");
  const base = new URL(baseURL, globalThis.location?.href);

  /** id ("" for fleet-reader) → {token, receivedAt, lifetime, reuseFor}: when it arrived (on
   * both clocks), how long it lives and for how long it is handed out, in milliseconds. */
  const cache = new Map();
  /** Counts `clear()`s: a request started before one hands its token to its own callers only. */
  let generation = 0;
  /** id → the promise of the request in flight. */
  const inFlight = new Map();

  /** Now, as the two clocks a token's age is judged on: `clock()` (monotonic) and `Date`. */
  function now() {
    return { monotonic: clock(), wall: Date.now() };
  }

  /** How long ago `then` was: the larger of the two clocks' answers, so that a monotonic clock
   * that stood still while the computer slept does not keep an expired token, and a `Date`
   * hours off changes nothing (only its difference is used). */
  function since(then, at) {
    return Math.max(at.monotonic - then.monotonic, at.wall - then.wall);
  }

  function fresh(key, at) {
    const held = cache.get(key);
    return held && since(held.receivedAt, at) < held.reuseFor ? held : null;
  }

  function answer(held, at) {
    return { token: held.token, expiresInSeconds: Math.floor((held.lifetime - since(held.receivedAt, at)) / 1000) };
  }

  /** A fetched token as the cache holds it. */
  function hold({ token, expiresInSeconds, receivedAt }) {
    const lifetime = Math.max(0, expiresInSeconds * 1000);
    return { token, receivedAt, lifetime, reuseFor: lifetime - Math.min(margin, lifetime / 4) };
  }

  function remember(key, held) {
    cache.delete(key);
    if (cache.size >= cacheSize) cache.delete(cache.keys().next().value);
    cache.set(key, held);
  }

  function url(id) {
    const path = id === null ? route.path : `${route.path}/${encodeURIComponent(id)}`;
    return new URL(`v1/tokens/${path}`, base.href.endsWith("/") ? base : `${base.href}/`);
  }

  async function attempt(id) {
    // The app's own credential first, outside the request's time: its failure is the app's
    // (signed out, say), not the network's, and is not retried.
    let authorization;
    try {
      authorization = await authorize();
    } catch (error) {
      throw new TokenFetchError(`authorize() failed: ${error?.message ?? error}`, { cause: error });
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeout);
    let response;
    let body = null;
    let receivedAt;
    try {
      response = await send(url(id), {
        headers: { Authorization: authorization },
        cache: "no-store",
        credentials: "omit",
        signal: controller.signal,
      });
      receivedAt = now();
      // The body within the same time: a server that sends its head and stalls is a timeout too.
      body = await response.json().catch(() => {
        if (controller.signal.aborted) throw new DOMException("the answer's body did not arrive in time", "AbortError");
        return null;
      });
    } catch (error) {
      const why = error?.name === "AbortError" ? `no answer within ${timeout} ms` : "the network request failed";
      throw new TokenFetchError(`the token server could not be reached: ${why}`, { retryable: true });
    } finally {
      clearTimeout(timer);
    }
    if (response.ok) {
      if (typeof body?.token !== "string" || !Number.isFinite(body?.expiresInSeconds)) {
        throw new TokenFetchError("the token server's answer has no token and expiresInSeconds", { status: response.status });
      }
      return { token: body.token, expiresInSeconds: body.expiresInSeconds, receivedAt };
    }
    const message = typeof body?.error?.message === "string" ? body.error.message : `HTTP ${response.status}`;
    const retryable = response.status === 429 || response.status >= 500;
    const error = new TokenFetchError(`the token server refused: ${message}`, { status: response.status, retryable });
    const retryAfter = response.headers.get("Retry-After");
    if (retryable && retryAfter !== null && /^\d+$/.test(retryAfter.trim())) error.retryAfter = Number(retryAfter) * 1000;
    throw error;
  }

  async function fetchWithRetries(id) {
    for (let attemptNumber = 1; ; attemptNumber += 1) {
      try {
        return await attempt(id);
      } catch (error) {
        if (!error.retryable || attemptNumber >= maxAttempts) throw error;
        const cap = Math.min(maxBackoff, initialBackoff * 2 ** (attemptNumber - 1));
        await sleep(error.retryAfter !== undefined ? Math.min(error.retryAfter, maxRetryAfter) : cap * random());
      }
    }
  }

  function idFrom(options) {
    if (route.context === null) return null;
    const id = options?.context?.[route.context];
    if (typeof id !== "string" || id === "") {
      throw new TokenFetchError(`a ${kind} token needs options.context.${route.context}`);
    }
    return id;
  }

  function authTokenFetcher(options) {
    let id;
    try {
      id = idFrom(options);
    } catch (error) {
      return Promise.reject(error);
    }
    const key = id ?? "";
    const at = now();
    const held = fresh(key, at);
    if (held) return Promise.resolve(answer(held, at));
    let pending = inFlight.get(key);
    if (!pending) {
      const started = generation;
      pending = fetchWithRetries(id)
        .then((fetched) => {
          const token = hold(fetched);
          if (started === generation) remember(key, token);
          return token;
        })
        .finally(() => {
          if (inFlight.get(key) === pending) inFlight.delete(key);
        });
      inFlight.set(key, pending);
    }
    return pending.then((token) => answer(token, now()));
  }

  /** Forgets the token for `options.context`'s id (after Fleet Engine answered 401 with it):
   * the next call asks the token server again. */
  authTokenFetcher.invalidate = (options) => {
    const key = idFrom(options) ?? "";
    cache.delete(key);
    inFlight.delete(key);
  };

  /** Forgets every token, and lets no request in flight hand its token out: call it when the
   * user signs out, so that the next user's calls never get the last user's tokens. */
  authTokenFetcher.clear = () => {
    cache.clear();
    inFlight.clear();
    generation += 1;
  };

  return authTokenFetcher;
}
