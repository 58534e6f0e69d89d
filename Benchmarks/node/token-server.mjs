// The competitor of `fleetauth-bench token-server`: the smallest honest Node.js token server.
//
// It answers `GET /v1/tokens/driver/{vehicleId}` as FleetAuth's token server does: the bearer
// session token's SHA-256 (hex) names a session, which must be unexpired; the session's account
// must be a driver account assigned to the vehicle; then a fresh RS256 token is signed with the
// driver key (`kid` = private_key_id, `iss` = `sub` = client_email, Fleet Engine's `aud`, `iat`,
// `exp` an hour later, `authorization.vehicleid`) and answered as
// {"expiresAt":…,"expiresInSeconds":…,"issuedAt":…,"token":"…"}, with Google-shaped JSON errors.
//
// Only Node's own modules: node:http, and node:crypto's sign with a callback (so the RSA work
// runs on libuv's thread pool, beside the event loop). Sessions, accounts and assignments live
// in Maps, loaded at start from the fixture file the bench writes.
//
// Usage: node token-server.mjs FIXTURES.json
//   FIXTURES.json: {"keyFile": "…/keys/driver.json",
//                   "accounts": [{"username": …, "role": "driver"}],
//                   "sessions": [{"tokenHash": …, "username": …, "expiresAt": epochSeconds}],
//                   "assignments": [{"username": …, "kind": "vehicle", "id": …}]}
// Prints "listening PORT" once it accepts connections (it picks a free port on 127.0.0.1).

import { createHash, createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const fixtures = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const key = JSON.parse(readFileSync(fixtures.keyFile, 'utf8'));
const privateKey = createPrivateKey(key.private_key);
const audience = 'https://fleetengine.googleapis.com/';
const lifetimeSeconds = 3600;
const encodedHeader = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: key.private_key_id }));

/** username → role */
const roles = new Map(fixtures.accounts.map((account) => [account.username, account.role]));
/** SHA-256 hex of a session token → { username, expiresAt } */
const sessions = new Map(fixtures.sessions.map((s) => [s.tokenHash, { username: s.username, expiresAt: s.expiresAt }]));
/** "username|kind|id" for every assignment */
const assignments = new Set(fixtures.assignments.map((a) => `${a.username}|${a.kind}|${a.id}`));

const prefix = '/v1/tokens/driver/';
const forbidden = /[\s/:?,#*\x00-\x1f\x7f]/;

function base64url(text) {
  return Buffer.from(text).toString('base64url');
}

/** Answers a Google-shaped JSON error. */
function fail(response, code, status, message) {
  const body = JSON.stringify({ error: { code, message, status } });
  response.writeHead(code, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(body);
}

/** The bearer token of the request, or undefined. */
function bearer(request) {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const space = header.indexOf(' ');
  if (space < 0 || header.slice(0, space).toLowerCase() !== 'bearer') return undefined;
  const token = header.slice(space + 1).trim();
  return token.length > 0 ? token : undefined;
}

function handle(request, response) {
  if (request.method !== 'GET' || !request.url.startsWith(prefix)) {
    return fail(response, 404, 'NOT_FOUND', 'no such route');
  }
  let vehicleId;
  try {
    vehicleId = decodeURIComponent(request.url.slice(prefix.length));
  } catch {
    return fail(response, 400, 'INVALID_ARGUMENT', 'the vehicle id is not valid percent-encoding');
  }
  const token = bearer(request);
  if (token === undefined) {
    return fail(response, 401, 'UNAUTHENTICATED', 'missing credentials: send Authorization: Bearer <session token>');
  }
  const now = Math.floor(Date.now() / 1000);
  const session = sessions.get(createHash('sha256').update(token).digest('hex'));
  if (session === undefined || session.expiresAt <= now) {
    return fail(response, 401, 'UNAUTHENTICATED', 'the session is not valid: it is unknown, ended or expired; log in again');
  }
  if (vehicleId.length === 0 || vehicleId.length > 64 || forbidden.test(vehicleId)) {
    return fail(response, 403, 'PERMISSION_DENIED', 'no token is issued for this vehicle id');
  }
  if (roles.get(session.username) !== 'driver') {
    return fail(response, 403, 'PERMISSION_DENIED', 'driver tokens are for driver accounts');
  }
  if (!assignments.has(`${session.username}|vehicle|${vehicleId}`)) {
    return fail(response, 403, 'PERMISSION_DENIED', `account "${session.username}" is not assigned to vehicle "${vehicleId}"`);
  }
  const claims = {
    iss: key.client_email,
    sub: key.client_email,
    aud: audience,
    iat: now,
    exp: now + lifetimeSeconds,
    authorization: { vehicleid: vehicleId },
  };
  const signingInput = `${encodedHeader}.${base64url(JSON.stringify(claims))}`;
  sign('sha256', Buffer.from(signingInput), privateKey, (error, signature) => {
    if (error) return fail(response, 500, 'INTERNAL', 'signing failed');
    const jwt = `${signingInput}.${signature.toString('base64url')}`;
    const answeredAt = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ expiresAt: claims.exp, expiresInSeconds: claims.exp - answeredAt, issuedAt: now, token: jwt });
    response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
    response.end(body);
  });
}

const server = createServer({ keepAliveTimeout: 60_000 }, handle);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
