import FleetTokenProvider
import Foundation
import Testing

@Suite("URL template")
struct TokenURLTemplateTests {
    @Test("fills every placeholder with its percent-encoded id")
    func expandsPlaceholders() throws {
        let template = try TokenURLTemplate(
            "https://tokens.example.com/{vehicleId}/{tripId}/{deliveryVehicleId}/{taskId}?tracking={trackingId}"
        )
        let context = AuthorizationContext(
            vehicleID: "V1", tripID: "trip 2", deliveryVehicleID: "D/3", taskID: "T&4", trackingID: "K=5"
        )
        #expect(
            try template.url(for: context).absoluteString
                == "https://tokens.example.com/V1/trip%202/D%2F3/T%264?tracking=K%3D5"
        )
    }

    @Test("a missing or empty id is missingAuthorizationContext naming the placeholder")
    func refusesMissingIDs() throws {
        let template = try TokenURLTemplate("https://tokens.example.com/v1/tokens/consumer/{tripId}")
        for context in [AuthorizationContext(vehicleID: "V1"), AuthorizationContext(tripID: "")] {
            #expect(throws: TokenProviderError.missingAuthorizationContext(placeholder: "tripId")) {
                try template.url(for: context)
            }
        }
    }

    @Test(
        "refuses templates it cannot fill",
        arguments: [
            ("https://host/{vehicleID}", TokenURLTemplate.ParseError.unknownPlaceholder("vehicleID")),
            ("https://host/{vehicleId", .unbalancedBraces),
            ("https://host/vehicleId}", .unbalancedBraces),
            ("", .invalidURL),
        ]
    )
    func refusesBadTemplates(template: String, expected: TokenURLTemplate.ParseError) {
        #expect(throws: expected) { try TokenURLTemplate(template) }
    }
}
