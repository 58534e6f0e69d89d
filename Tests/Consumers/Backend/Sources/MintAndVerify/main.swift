// The README's FleetTokens example, verbatim; run in a folder holding driver.json.
import FleetTokens
import Foundation

// The key: its JSON from the environment (as a secret manager hands it over), else a file.
let key = if let json = ProcessInfo.processInfo.environment["FLEET_DRIVER_KEY_JSON"] {
    try ServiceAccountKey(json: Data(json.utf8), source: "$FLEET_DRIVER_KEY_JSON")
} else {
    try ServiceAccountKey(contentsOf: "driver.json")
}

// Mint a Driver SDK token for one vehicle, good for 30 minutes.
let minter = try TokenMinter(key: key)
let minted = try minter.mint(.driver(vehicleID: "vehicle-1"), lifetime: .seconds(1800))
print("minted for vehicle-1, expires \(minted.expiresAt)")

// Verify it as Fleet Engine would: the accounts you trust, each with its role.
let verifier = TokenVerifier(trusting: [TrustedServiceAccount(key: key, role: .driverSDKUser)])
let verified = try verifier.verify(minted.token)
print("verified: \(verified.role.shortName), vehicleid \(verified.authorization.vehicleID ?? "-")")

// Publish the public keys, for a verifier that reads a JWKS (the local Fleet Engine can).
let jwks = try JSONWebKeySet(publishing: [(key: key, role: .driverSDKUser)])
try jwks.jsonRepresentation().write(to: URL(fileURLWithPath: "jwks.json"))
