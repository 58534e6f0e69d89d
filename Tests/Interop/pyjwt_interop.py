#!/usr/bin/env python3
"""Independent JWT implementation (PyJWT + cryptography) for FleetAuth's interop tests.

verify KEYFILE TOKEN: verifies TOKEN (RS256, Fleet Engine audience) with the public key
    of the Google service-account KEYFILE and prints {"header": ..., "claims": ...}.
mint KEYFILE VEHICLE LIFETIME: mints a Fleet Engine driver token with KEYFILE, exactly as
    Google's Python samples do, and prints it.
"""
import json
import sys
import time

import jwt
from cryptography.hazmat.primitives import serialization

AUDIENCE = "https://fleetengine.googleapis.com/"


def load(path):
    with open(path) as handle:
        return json.load(handle)


def verify(key_path, token):
    key = load(key_path)
    private = serialization.load_pem_private_key(key["private_key"].encode(), password=None)
    claims = jwt.decode(
        token,
        private.public_key(),
        algorithms=["RS256"],
        audience=AUDIENCE,
        issuer=key["client_email"],
        options={"require": ["iss", "sub", "aud", "iat", "exp"]},
    )
    header = jwt.get_unverified_header(token)
    print(json.dumps({"header": header, "claims": claims}))


def mint(key_path, vehicle, lifetime):
    key = load(key_path)
    now = int(time.time())
    claims = {
        "iss": key["client_email"],
        "sub": key["client_email"],
        "aud": AUDIENCE,
        "iat": now,
        "exp": now + int(lifetime),
        "authorization": {"vehicleid": vehicle},
    }
    print(jwt.encode(claims, key["private_key"], algorithm="RS256", headers={"kid": key["private_key_id"]}))


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "verify":
        verify(sys.argv[2], sys.argv[3])
    elif command == "mint":
        mint(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(f"unknown command {command}")
