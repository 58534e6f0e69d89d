import Crypto
import FleetAuthCodecs
import FleetTokens
import Foundation
import NIOHTTP1
import TestSupport
import Testing

/// The corpus of bad tokens, each sent as a location update of vehicle v1 to the
/// shared engine: refused with the right status and Google error body, the token never
/// echoed, and the server still serving afterwards.
@Suite("Bad tokens over HTTP")
struct BadTokenTests {
    /// A location update of vehicle v1 with the given `Authorization` header, refused with
    /// `status` and `phrase`.
    static func bad(name: String, authorization: @escaping @Sendable () -> String?, status: Int, phrase: String)
        -> RequestCase
    {
        RequestCase(
            name: name, method: .PUT, path: "\(Fixtures.provider)/vehicles/v1?updateMask=lastLocation",
            authorization: authorization,
            body: Fixtures.locationUpdate(latitude: 52.5, longitude: 13.4), status: status, phrase: phrase)
    }

    static let driver = TestKeys.driver
    static func bearer(_ token: String) -> String { "Bearer \(token)" }
    static func forged(header: [String: Any]? = nil, payload: [String: Any]? = nil, key: ServiceAccountKey = driver)
        -> String
    {
        Forge.token(
            header: header ?? Forge.header(for: driver), payload: payload ?? Forge.driverPayload(for: driver),
            signedBy: key)
    }

    /// An honestly signed driver token padded to about `bytes` bytes.
    static func hugeToken(bytes: Int) -> String {
        forged(
            payload: Forge.driverPayload(
                for: driver, changes: ["pad": String(repeating: "x", count: bytes * 3 / 4 - 600)]))
    }

    static let cases: [RequestCase] = [
        bad(name: "no Authorization header", authorization: { nil }, status: 401, phrase: "no token"),
        bad(name: "Bearer with nothing", authorization: { "Bearer" }, status: 401, phrase: "no token"),
        bad(name: "Bearer and spaces", authorization: { "Bearer   " }, status: 401, phrase: "no token"),
        bad(name: "Basic scheme", authorization: { "Basic dXNlcjpwYXNz" }, status: 401, phrase: "Bearer <JWT>"),
        bad(name: "garbage", authorization: { bearer("garbage") }, status: 401, phrase: "three base64url segments"),
        bad(name: "two dots only", authorization: { bearer("..") }, status: 401, phrase: "malformed"),
        bad(
            name: "bad base64", authorization: { bearer("eyJhbGciOiJSUzI1NiJ9.%%%%.c2ln") }, status: 401,
            phrase: "not base64url"),
        bad(
            name: "header JSON that is not an object",
            authorization: {
                bearer(Forge.segment([1, 2]) + "." + Forge.segment(Forge.driverPayload(for: driver)) + ".c2ln")
            }, status: 401, phrase: "malformed"),
        bad(
            name: "payload JSON that is not an object",
            authorization: {
                bearer(Forge.token(header: Forge.header(for: driver), payload: "just a string", signedBy: driver))
            }, status: 401, phrase: "malformed"),
        bad(
            name: "alg none",
            authorization: {
                var header = Forge.header(for: driver)
                header["alg"] = "none"
                return bearer(Forge.segment(header) + "." + Forge.segment(Forge.driverPayload(for: driver)) + ".")
            }, status: 401, phrase: "malformed"),
        bad(
            name: "alg none with a signature",
            authorization: {
                var header = Forge.header(for: driver)
                header["alg"] = "none"
                return bearer(forged(header: header))
            }, status: 401, phrase: "'none' is not accepted"),
        bad(
            name: "HS256 signed with the public key as secret",
            authorization: {
                var header = Forge.header(for: driver)
                header["alg"] = "HS256"
                let input = Forge.segment(header) + "." + Forge.segment(Forge.driverPayload(for: driver))
                let secret = SymmetricKey(data: Data(driver.publicKey.pemRepresentation.utf8))
                return bearer(
                    input + "."
                        + Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: secret))))
            }, status: 401, phrase: "'HS256' is not accepted"),
        bad(
            name: "unknown kid",
            authorization: {
                var header = Forge.header(for: driver)
                header["kid"] = "0123456789abcdef0123456789abcdef01234567"
                return bearer(forged(header: header))
            }, status: 401, phrase: "key id"),
        bad(
            name: "right kid, another key's signature",
            authorization: { bearer(forged(key: TestKeys.driverSecondKey)) }, status: 401, phrase: "signature"),
        bad(
            name: "key of an untrusted account",
            authorization: {
                bearer(
                    Forge.token(
                        header: Forge.header(for: TestKeys.stranger),
                        payload: Forge.driverPayload(for: TestKeys.stranger), signedBy: TestKeys.stranger))
            }, status: 401, phrase: "not a trusted service account"),
        bad(
            name: "wrong aud",
            authorization: {
                bearer(forged(payload: Forge.driverPayload(for: driver, changes: ["aud": "https://example.com/"])))
            }, status: 401, phrase: "audience"),
        bad(
            name: "expired",
            authorization: {
                let now = Int64(Date().timeIntervalSince1970)
                return bearer(
                    forged(payload: Forge.driverPayload(for: driver, changes: ["iat": now - 3000, "exp": now - 60])))
            }, status: 401, phrase: "expired"),
        bad(
            name: "iat far in the future",
            authorization: {
                let now = Int64(Date().timeIntervalSince1970)
                return bearer(
                    forged(payload: Forge.driverPayload(for: driver, changes: ["iat": now + 7200, "exp": now + 7800])))
            }, status: 401, phrase: "in the future"),
        bad(
            name: "exp - iat over 3600",
            authorization: {
                let now = Int64(Date().timeIntervalSince1970)
                return bearer(
                    forged(payload: Forge.driverPayload(for: driver, changes: ["iat": now, "exp": now + 3601])))
            }, status: 401, phrase: "lifetime"),
        bad(
            name: "vehicleid as a number",
            authorization: { bearer(forged(payload: Forge.driverPayload(for: driver, vehicleID: 1))) },
            status: 401, phrase: "vehicleid"),
        bad(
            name: "vehicleid as an array",
            authorization: { bearer(forged(payload: Forge.driverPayload(for: driver, vehicleID: ["v1"]))) },
            status: 401, phrase: "vehicleid"),
        bad(
            name: "consumer token used for a location update", authorization: { bearer(Tokens.consumer("t1")) },
            status: 403, phrase: "consumer token may not update vehicle 'v1'"),
        bad(
            name: "40 KiB token", authorization: { bearer(hugeToken(bytes: 40 * 1024)) }, status: 401,
            phrase: "at most 8192"),
        bad(
            name: "9 KiB token", authorization: { bearer(hugeToken(bytes: 9 * 1024)) }, status: 401,
            phrase: "at most 8192"),
        bad(
            name: "two Authorization headers' worth in one",
            authorization: { bearer(Tokens.driver("v1") + " " + Tokens.driver("v1")) },
            status: 401, phrase: "malformed"),
    ]

    @Test(arguments: cases)
    func refused(_ bad: RequestCase) async throws {
        let client = try await TestEngine.shared
        let (response, authorization) = try await bad.check(on: client)
        if let token = authorization?.split(separator: " ").last, token.count > 16 {
            #expect(!response.body.contains(token), "the response echoes the token")
        }
        let alive = try await client.send(.GET, "\(Fixtures.provider)/vehicles/v1", token: Tokens.server)
        #expect(alive.status == 200)
    }

    @Test func aHeaderBeyondTheParsersLimitIsRefusedWith431AndTheServerGoesOn() async throws {
        let client = try await TestEngine.shared
        let token = Self.hugeToken(bytes: 100 * 1024)
        let response = try await client.send(
            .GET, "\(Fixtures.provider)/vehicles/v1", authorization: Self.bearer(token))
        #expect(response.status == 431, "\(response)")
        #expect(response.errorCode == 431 && response.errorStatus == "INVALID_ARGUMENT", "\(response)")
        #expect(!response.body.contains(token.prefix(64)), "the response echoes the token")
        let alive = try await client.send(.GET, "\(Fixtures.provider)/vehicles/v1", token: Tokens.server)
        #expect(alive.status == 200)
    }

    @Test func theHonestTokenPasses() async throws {
        let client = try await TestEngine.shared
        let response = try await client.send(
            .PUT, "\(Fixtures.provider)/vehicles/v1?updateMask=lastLocation",
            authorization: Self.bearer(Self.forged()), body: Fixtures.locationUpdate(latitude: 52.5, longitude: 13.4))
        #expect(response.status == 200, "\(response)")
    }
}
