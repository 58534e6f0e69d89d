// The competitor of `fleetauth-bench fleet-engine`'s REST runs: the smallest honest Node.js
// engine for its two requests, to see what share of authenticated GETs durable updates reach
// when nothing but the job stands between them.
//
// `GET /v1/providers/{p}/vehicles/{v}` answers the vehicle; `PUT …/vehicles/{v}?updateMask=lastLocation`
// with a body {"lastLocation": {...}} sets its last location, and answers the vehicle only once
// the update is written to the log file (group commit: the updates that arrive while a write is
// under way go out together in the next one, with write(2), no fsync: what SQLite's WAL with
// `synchronous=NORMAL` gives, an acknowledged update survives kill -9). Both need a driver token
// (RS256, `kid` naming a trusted key, `iss` = `sub` = its account, Fleet Engine's `aud`, live
// `iat`/`exp`, `authorization.vehicleid` naming the vehicle); a verified token is kept in a Map,
// as the engine's verified-token cache keeps it. Errors are Google-shaped JSON.
//
// Only Node's own modules: node:http, node:crypto (verify), node:fs.
//
// Usage: node fleet-engine.mjs FIXTURES.json
//   FIXTURES.json: {"project": "…", "keyFiles": ["…/driver.json", …] (service-account key files
//                   whose accounts are trusted), "vehicles": ["bench-0", …], "log": "…/updates.log"}
// Prints "listening PORT" once it accepts connections (a free port on 127.0.0.1). Each line of
// the log is one acknowledged update: {"name": "providers/…/vehicles/…", "lastLocation": {…}}.

import { createPublicKey, verify } from 'node:crypto';
import { openSync, readFileSync, write } from 'node:fs';
import { createServer } from 'node:http';

const fixtures = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const audience = 'https://fleetengine.googleapis.com/';
const prefix = `/v1/providers/${fixtures.project}/vehicles/`;
const log = openSync(fixtures.log, 'a');

/** kid → { email, publicKey } of every trusted account */
const keys = new Map(fixtures.keyFiles.map((path) => {
  const key = JSON.parse(readFileSync(path, 'utf8'));
  return [key.private_key_id, { email: key.client_email, publicKey: createPublicKey(key.private_key) }];
}));
/** vehicle id → the vehicle as answered */
const vehicles = new Map(fixtures.vehicles.map((id) => [id, {
  name: `providers/${fixtures.project}/vehicles/${id}`,
  vehicleState: 'ONLINE', supportedTripTypes: ['EXCLUSIVE'], maximumCapacity: 4, vehicleType: { category: 'AUTO' },
}]));
/** a token already verified → its claims */
const verified = new Map();

function fail(response, code, status, message) {
  response.writeHead(code, { 'Content-Type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify({ error: { code, message, status } }));
}

function answer(response, vehicle) {
  response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(vehicle));
}

/** The claims of the request's bearer token once verified, or a refusal's message. */
function claims(request) {
  const header = request.headers.authorization ?? '';
  if (!header.startsWith('Bearer ')) return 'missing credentials: send Authorization: Bearer <JWT>';
  const token = header.slice(7).trim();
  const now = Math.floor(Date.now() / 1000);
  let found = verified.get(token);
  if (found === undefined) {
    const [head, payload, signature] = token.split('.');
    try {
      const { alg, kid } = JSON.parse(Buffer.from(head, 'base64url'));
      const key = keys.get(kid);
      if (alg !== 'RS256' || key === undefined) return 'the token is not signed by a trusted key';
      if (!verify('sha256', Buffer.from(`${head}.${payload}`), key.publicKey, Buffer.from(signature, 'base64url'))) {
        return 'the token signature does not verify';
      }
      found = JSON.parse(Buffer.from(payload, 'base64url'));
      if (found.iss !== key.email || found.sub !== key.email || found.aud !== audience) return 'the token names another account or audience';
    } catch {
      return 'the token is not a JWT';
    }
    if (verified.size >= 100_000) verified.clear();
    verified.set(token, found);
  }
  if (!(found.exp > now && found.iat <= now + 60)) return 'the token has expired or is not yet valid';
  return found;
}

/** Updates waiting for the write under way, and whether one is under way. */
let waiting = [];
let writing = false;

/** Writes every waiting update in one write, then answers them; then the next group. */
function commit() {
  if (writing || waiting.length === 0) return;
  const group = waiting;
  waiting = [];
  writing = true;
  const lines = group.map(({ vehicle, update }) => JSON.stringify({ name: vehicle.name, lastLocation: update })).join('\n') + '\n';
  write(log, lines, (error) => {
    writing = false;
    for (const { vehicle, update, response } of group) {
      if (error) {
        fail(response, 500, 'INTERNAL', 'the update could not be saved');
      } else {
        vehicle.lastLocation = update;
        answer(response, vehicle);
      }
    }
    commit();
  });
}

function update(request, response, vehicle, query) {
  if (new URLSearchParams(query).get('updateMask') !== 'lastLocation') {
    return fail(response, 400, 'INVALID_ARGUMENT', 'updateMask must be lastLocation');
  }
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks));
    } catch {
      return fail(response, 400, 'INVALID_ARGUMENT', 'the body is not JSON');
    }
    const location = body?.lastLocation?.location;
    if (typeof location?.latitude !== 'number' || Math.abs(location.latitude) > 90
        || typeof location.longitude !== 'number' || Math.abs(location.longitude) > 180) {
      return fail(response, 400, 'INVALID_ARGUMENT', 'lastLocation.location needs a latitude and a longitude');
    }
    waiting.push({ vehicle, update: { ...body.lastLocation, serverTime: new Date().toISOString() }, response });
    commit();
  });
}

function handle(request, response) {
  const [path, query = ''] = request.url.split('?', 2);
  const vehicle = path.startsWith(prefix) ? vehicles.get(path.slice(prefix.length)) : undefined;
  const isRead = request.method === 'GET', isUpdate = request.method === 'PUT';
  if (!isRead && !isUpdate) return fail(response, 404, 'NOT_FOUND', 'no such route');
  const found = claims(request);
  if (typeof found === 'string') return fail(response, 401, 'UNAUTHENTICATED', found);
  if (vehicle === undefined) return fail(response, 404, 'NOT_FOUND', 'no such vehicle');
  if (found.authorization?.vehicleid !== path.slice(prefix.length)) {
    return fail(response, 403, 'PERMISSION_DENIED', 'the token is for another vehicle');
  }
  if (isRead) return answer(response, vehicle);
  update(request, response, vehicle, query);
}

const server = createServer({ keepAliveTimeout: 60_000 }, handle);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
