import Foundation
import Testing

@testable import FleetTokens

@Suite("Claims JSON written by hand")
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

    @Test("the same JSON object JSONEncoder writes, escapes and absent claims included", arguments: cases)
    func matchesJSONEncoder(claims: FleetEngineClaims) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let expected = try JSONSerialization.jsonObject(with: try encoder.encode(claims)) as? NSDictionary
        let written = try JSONSerialization.jsonObject(with: Data(claims.jsonBytes)) as? NSDictionary
        #expect(written != nil && written == expected)
        #expect(try JSONDecoder().decode(FleetEngineClaims.self, from: Data(claims.jsonBytes)) == claims)
    }

    @Test("keys in a fixed order, so the same claims always make the same token")
    func fixedOrder() {
        let json = String(decoding: Self.cases[0].jsonBytes, as: UTF8.self)
        #expect(
            json
                == #"{"iss":"fe-driver@p.iam.gserviceaccount.com","sub":"fe-driver@p.iam.gserviceaccount.com","aud":"https://fleetengine.googleapis.com/","iat":1800000000,"exp":1800003600,"authorization":{"vehicleid":"v-1"}}"#
        )
    }
}
