import FleetAuthServerHTTP
import Testing

@testable import LocalFleetEngine

/// The resource names gRPC requests carry, read in place.
@Suite("gRPC resource names")
struct ResourceNamesTests {
    @Test(arguments: [
        ("providers/p/vehicles/v-1", "p", "v-1"),
        ("providers/my-project/vehicles/", "my-project", ""),
        ("providers/é/vehicles/ü", "é", "ü"),
    ])
    func namesGiveTheirProviderAndID(_ name: String, _ provider: String, _ id: String) throws {
        let parsed = try ResourceNames.parse(name, collection: "vehicles")
        #expect(parsed.provider == provider && parsed.id == id)
    }

    @Test(arguments: [
        "", "providers", "providers/", "providers//vehicles/v", "providers/p", "providers/p/vehicles",
        "providers/p/vehiclesX/v",
        "providers/p/trips/t", "providers/p/vehicles/v/extra", "provider/p/vehicles/v", "/providers/p/vehicles/v",
    ])
    func otherNamesAreRefusedByName(_ name: String) {
        #expect {
            try ResourceNames.parse(name, collection: "vehicles")
        } throws: { error in
            (error as? APIError)?.message == "name must be providers/{provider}/vehicles/{id}; it is '\(name)'"
        }
    }

    @Test func parentsGiveTheirProvider() throws {
        #expect(try ResourceNames.provider(ofParent: "providers/p") == "p")
        for parent in ["", "providers/", "providers/p/", "providers/p/vehicles", "p"] {
            #expect(throws: APIError.self, "\(parent)") { try ResourceNames.provider(ofParent: parent) }
        }
    }
}
