import Foundation
import Testing

@testable import FleetTokens

@Suite("Claims JSON")
struct ClaimsJSONTests {
    static let cases: [FleetEngineClaims] = [
        .init(
            issuer: "fe-driver@p.iam.gserviceaccount.com", subject: "fe-driver@p.iam.gserviceaccount.com",
            issuedAt: 1_800_000_000, expiresAt: 1_800_003_600, authorization: .init(vehicleID: "v-1")),
        .init(
            issuer: "a@b", subject: "a@b", audience: "https://example.com/x/", issuedAt: 0, expiresAt: -1,
            authorization: .init(tripID: "t/1", taskIDs: ["k-1", "k \"2\"", "ü\u{1}\n"], trackingID: "*")),
        .init(
            issuer: "back\\slash", subject: "\u{7F}del", issuedAt: 5, expiresAt: 6,
            authorization: .init(
                vehicleID: "v", tripID: "t", deliveryVehicleID: "d", taskID: "k", taskIDs: [], trackingID: "r")),
        .init(issuer: "i", subject: "s", issuedAt: 1, expiresAt: 2, authorization: .init()),
    ]

    @Test("claims round-trip through their JSON, escapes and absent claims included", arguments: cases)
    func roundTrip(claims: FleetEngineClaims) throws {
        #expect(try JSONDecoder().decode(FleetEngineClaims.self, from: Data(claims.jsonBytes)) == claims)
        let object = try JSONSerialization.jsonObject(with: Data(claims.jsonBytes)) as? [String: Any]
        let authorization = object?["authorization"] as? [String: Any]
        #expect(authorization?.keys.contains("tripid") == (claims.authorization.tripID != nil))
        #expect(!String(decoding: claims.jsonBytes, as: UTF8.self).contains(#"\/"#))
    }

    @Test("keys sorted, so the same claims always make the same token")
    func fixedOrder() {
        let json = String(decoding: Self.cases[0].jsonBytes, as: UTF8.self)
        #expect(
            json
                == #"{"aud":"https://fleetengine.googleapis.com/","authorization":{"vehicleid":"v-1"},"exp":1800003600,"iat":1800000000,"iss":"fe-driver@p.iam.gserviceaccount.com","sub":"fe-driver@p.iam.gserviceaccount.com"}"#
        )
        for claims in Self.cases { #expect(claims.jsonBytes == claims.jsonBytes) }
    }
}
