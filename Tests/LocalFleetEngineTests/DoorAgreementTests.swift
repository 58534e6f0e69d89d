import FleetEngineProtos
import Foundation
import GRPCCore
import NIOHTTP1
import SwiftProtobuf
import TestSupport
import Testing

/// Both doors agree: the same calls through REST and gRPC, by every kind of token of the
/// permission table and with the request mistakes each door can carry, get the same status and
/// message; reads get the same resource.
@Suite("REST and gRPC agree")
struct DoorAgreementTests {
    static let parent = "providers/\(TestKeys.project)"

    /// One call, as REST and as gRPC. `{door}` in ids becomes `rest` or `grpc`, so that a
    /// creation allowed to both makes two resources.
    struct Call: Sendable {
        let name: String
        let method: HTTPMethod
        let path: String
        let body: String?
        let grpc: @Sendable (GRPCTestClient, Metadata, _ door: String) async throws -> any SwiftProtobuf.Message
    }

    /// The tokens of the permission table's columns, and none and a stranger's.
    static let tokens: [(String, @Sendable () -> String?)] = [
        ("server", { Tokens.server }), ("admin", { Tokens.admin }), ("viewer", { Tokens.viewer }),
        ("own driver", { Tokens.driver("dv") }), ("other driver", { Tokens.driver("v1") }),
        ("own consumer", { Tokens.consumer("dt") }), ("other consumer", { Tokens.consumer("t1") }),
        ("delivery admin", { Tokens.deliveryAdmin }), ("no token", { nil }),
        ("stranger", { Tokens.mint(TestKeys.stranger, .server) }),
    ]

    static let location = Fixtures.locationUpdate(latitude: 40.41, longitude: -3.70)

    static func calls(as token: String) -> [Call] {
        let tag = token.replacingOccurrences(of: " ", with: "-")
        return [
            Call(name: "GetVehicle", method: .GET, path: "/vehicles/dv", body: nil) { grpc, metadata, _ in
                try await grpc.vehicles.getVehicle(.with { $0.name = "\(parent)/vehicles/dv" }, metadata: metadata)
            },
            Call(name: "UpdateVehicle", method: .PUT, path: "/vehicles/dv?updateMask=lastLocation", body: location) {
                grpc, metadata, _ in
                try await grpc.vehicles.updateVehicle(
                    .with {
                        $0.name = "\(parent)/vehicles/dv"
                        $0.vehicle = try! Maps_Fleetengine_V1_Vehicle(jsonString: location)
                        $0.updateMask = .with { $0.paths = ["last_location"] }
                    },
                    metadata: metadata)
            },
            Call(
                name: "CreateVehicle", method: .POST, path: "/vehicles?vehicleId=d-{door}-\(tag)",
                body: Fixtures.vehicleBody(latitude: 40.4, longitude: -3.7)
            ) { grpc, metadata, door in
                try await grpc.vehicles.createVehicle(
                    .with {
                        $0.parent = parent
                        $0.vehicleID = "d-\(door)-\(tag)"
                        $0.vehicle = try! Maps_Fleetengine_V1_Vehicle(
                            jsonString: Fixtures.vehicleBody(latitude: 40.4, longitude: -3.7))
                    },
                    metadata: metadata)
            },
            Call(name: "DeleteVehicle", method: .DELETE, path: "/vehicles/d-{door}-\(tag)", body: nil) {
                grpc, metadata, door in
                try await grpc.vehicles.deleteVehicle(
                    .with { $0.name = "\(parent)/vehicles/d-\(door)-\(tag)" }, metadata: metadata)
            },
            Call(
                name: "SearchVehicles", method: .POST, path: "/vehicles:search",
                body: """
                    {"pickupPoint":{"point":{"latitude":40.4,"longitude":-3.7}},"pickupRadiusMeters":2000,"count":50,"minimumCapacity":1,\
                    "tripTypes":["EXCLUSIVE"],"vehicleTypes":[{"category":"AUTO"}],"orderBy":"PICKUP_POINT_STRAIGHT_DISTANCE"}
                    """
            ) { grpc, metadata, _ in
                try await grpc.vehicles.searchVehicles(
                    .with {
                        $0.parent = parent
                        $0.pickupPoint = .with {
                            $0.point = .with {
                                $0.latitude = 40.4; $0.longitude = -3.7
                            }
                        }
                        $0.pickupRadiusMeters = 2000
                        $0.count = 50
                        $0.minimumCapacity = 1
                        $0.tripTypes = [.exclusive]
                        $0.vehicleTypes = [.with { $0.category = .auto }]
                        $0.orderBy = .pickupPointStraightDistance
                    },
                    metadata: metadata)
            },
            Call(
                name: "UpdateVehicleAttributes", method: .POST, path: "/vehicles/dv:updateAttributes",
                body: #"{"attributes":[{"key":"agreement","stringValue":"yes"}]}"#
            ) { grpc, metadata, _ in
                try await grpc.vehicles.updateVehicleAttributes(
                    .with {
                        $0.name = "\(parent)/vehicles/dv"
                        $0.attributes = [
                            .with {
                                $0.key = "agreement"; $0.stringValue = "yes"
                            }
                        ]
                    },
                    metadata: metadata)
            },
            Call(
                name: "ListVehicles", method: .GET,
                path: "/vehicles?vehicleTypeCategories=AUTO&requiredAttributes=agreement:yes", body: nil
            ) {
                grpc, metadata, _ in
                try await grpc.vehicles.listVehicles(
                    .with {
                        $0.parent = parent; $0.vehicleTypeCategories = [.auto];
                        $0.requiredAttributes = ["agreement:yes"]
                    }, metadata: metadata)
            },
            Call(
                name: "ReportBillableTrip", method: .POST, path: "/billableTrips/dt:report",
                body: #"{"countryCode":"ES","platform":"SERVER"}"#
            ) {
                grpc, metadata, _ in
                try await grpc.trips.reportBillableTrip(
                    .with {
                        $0.name = "\(parent)/billableTrips/dt"; $0.countryCode = "ES"; $0.platform = .server
                    }, metadata: metadata)
            },
            Call(name: "GetTrip", method: .GET, path: "/trips/dt", body: nil) { grpc, metadata, _ in
                try await grpc.trips.getTrip(.with { $0.name = "\(parent)/trips/dt" }, metadata: metadata)
            },
            Call(
                name: "UpdateTrip", method: .PUT, path: "/trips/dt?updateMask=tripStatus",
                body: #"{"tripStatus":"ENROUTE_TO_PICKUP"}"#
            ) { grpc, metadata, _ in
                try await grpc.trips.updateTrip(
                    .with {
                        $0.name = "\(parent)/trips/dt"
                        $0.trip = .with { $0.tripStatus = .enrouteToPickup }
                        $0.updateMask = .with { $0.paths = ["trip_status"] }
                    },
                    metadata: metadata)
            },
            Call(
                name: "CreateTrip", method: .POST, path: "/trips?tripId=d-{door}-trip-\(tag)",
                body: Fixtures.tripBody(vehicleID: "dv")
            ) { grpc, metadata, door in
                try await grpc.trips.createTrip(
                    .with {
                        $0.parent = parent
                        $0.tripID = "d-\(door)-trip-\(tag)"
                        $0.trip = try! Maps_Fleetengine_V1_Trip(jsonString: Fixtures.tripBody(vehicleID: "dv"))
                    },
                    metadata: metadata)
            },
            Call(name: "DeleteTrip", method: .DELETE, path: "/trips/d-{door}-trip-\(tag)", body: nil) {
                grpc, metadata, door in
                try await grpc.trips.deleteTrip(
                    .with { $0.name = "\(parent)/trips/d-\(door)-trip-\(tag)" }, metadata: metadata)
            },
            Call(
                name: "SearchTrips", method: .POST, path: "/trips:search",
                body: #"{"vehicleId":"dv","activeTripsOnly":true}"#
            ) { grpc, metadata, _ in
                try await grpc.trips.searchTrips(
                    .with {
                        $0.parent = parent; $0.vehicleID = "dv"; $0.activeTripsOnly = true
                    }, metadata: metadata)
            },
        ]
    }

    /// Request mistakes both doors can carry, with a server token.
    static let mistakes: [Call] = [
        Call(name: "no vehicle id", method: .POST, path: "/vehicles", body: Fixtures.vehicleBody()) {
            grpc, metadata, _ in
            try await grpc.vehicles.createVehicle(
                .with {
                    $0.parent = parent;
                    $0.vehicle = try! Maps_Fleetengine_V1_Vehicle(jsonString: Fixtures.vehicleBody())
                }, metadata: metadata)
        },
        Call(name: "a vehicle that exists", method: .POST, path: "/vehicles?vehicleId=dv", body: Fixtures.vehicleBody())
        { grpc, metadata, _ in
            try await grpc.vehicles.createVehicle(
                .with {
                    $0.parent = parent; $0.vehicleID = "dv";
                    $0.vehicle = try! Maps_Fleetengine_V1_Vehicle(jsonString: Fixtures.vehicleBody())
                },
                metadata: metadata)
        },
        Call(name: "a missing vehicle", method: .GET, path: "/vehicles/d-missing", body: nil) { grpc, metadata, _ in
            try await grpc.vehicles.getVehicle(.with { $0.name = "\(parent)/vehicles/d-missing" }, metadata: metadata)
        },
        Call(
            name: "a latitude off the globe", method: .PUT, path: "/vehicles/dv?updateMask=lastLocation",
            body: Fixtures.locationUpdate(latitude: 200, longitude: 0)
        ) { grpc, metadata, _ in
            try await grpc.vehicles.updateVehicle(
                .with {
                    $0.name = "\(parent)/vehicles/dv"
                    $0.vehicle = try! Maps_Fleetengine_V1_Vehicle(
                        jsonString: Fixtures.locationUpdate(latitude: 200, longitude: 0))
                    $0.updateMask = .with { $0.paths = ["lastLocation"] }
                },
                metadata: metadata)
        },
        Call(name: "a mask naming no field", method: .PUT, path: "/vehicles/dv?updateMask=colour", body: location) {
            grpc, metadata, _ in
            try await grpc.vehicles.updateVehicle(
                .with {
                    $0.name = "\(parent)/vehicles/dv"
                    $0.vehicle = try! Maps_Fleetengine_V1_Vehicle(jsonString: location)
                    $0.updateMask = .with { $0.paths = ["colour"] }
                },
                metadata: metadata)
        },
        Call(name: "a listing without categories", method: .GET, path: "/vehicles?pageSize=2", body: nil) {
            grpc, metadata, _ in
            try await grpc.vehicles.listVehicles(
                .with {
                    $0.parent = parent; $0.pageSize = 2
                }, metadata: metadata)
        },
        Call(
            name: "a page token this engine did not give", method: .GET,
            path: "/vehicles?vehicleTypeCategories=AUTO&pageToken=%25%25", body: nil
        ) {
            grpc, metadata, _ in
            try await grpc.vehicles.listVehicles(
                .with {
                    $0.parent = parent; $0.vehicleTypeCategories = [.auto]; $0.pageToken = "%%"
                }, metadata: metadata)
        },
        Call(
            name: "an attribute merge without attributes", method: .POST, path: "/vehicles/dv:updateAttributes",
            body: "{}"
        ) { grpc, metadata, _ in
            try await grpc.vehicles.updateVehicleAttributes(
                .with { $0.name = "\(parent)/vehicles/dv" }, metadata: metadata)
        },
        Call(name: "a billing report without a country", method: .POST, path: "/billableTrips/dt:report", body: "{}") {
            grpc, metadata, _ in
            try await grpc.trips.reportBillableTrip(
                .with { $0.name = "\(parent)/billableTrips/dt" }, metadata: metadata)
        },
        Call(name: "deleting a missing vehicle", method: .DELETE, path: "/vehicles/d-missing", body: nil) {
            grpc, metadata, _ in
            try await grpc.vehicles.deleteVehicle(
                .with { $0.name = "\(parent)/vehicles/d-missing" }, metadata: metadata)
        },
        Call(name: "deleting a vehicle with an unfinished trip", method: .DELETE, path: "/vehicles/dw", body: nil) {
            grpc, metadata, _ in
            try await grpc.vehicles.deleteVehicle(.with { $0.name = "\(parent)/vehicles/dw" }, metadata: metadata)
        },
        Call(name: "deleting an unfinished assigned trip", method: .DELETE, path: "/trips/dw-trip", body: nil) {
            grpc, metadata, _ in
            try await grpc.trips.deleteTrip(.with { $0.name = "\(parent)/trips/dw-trip" }, metadata: metadata)
        },
        Call(
            name: "a trip search by staleness", method: .POST, path: "/trips:search",
            body: #"{"minimumStaleness":"30s"}"#
        ) { grpc, metadata, _ in
            try await grpc.trips.searchTrips(
                .with {
                    $0.parent = parent; $0.minimumStaleness = .with { $0.seconds = 30 }
                }, metadata: metadata)
        },
        Call(
            name: "a trip on a missing vehicle", method: .POST, path: "/trips?tripId=d-{door}-orphan",
            body: Fixtures.tripBody(vehicleID: "d-missing")
        ) { grpc, metadata, door in
            try await grpc.trips.createTrip(
                .with {
                    $0.parent = parent
                    $0.tripID = "d-\(door)-orphan"
                    $0.trip = try! Maps_Fleetengine_V1_Trip(jsonString: Fixtures.tripBody(vehicleID: "d-missing"))
                },
                metadata: metadata)
        },
    ]

    /// What one door answered: the status name (`OK` for success), the message with the door's
    /// name taken out of ids, and the resource's proto3 JSON.
    struct Answer: Equatable, CustomStringConvertible {
        let status: String
        let message: String
        let resource: NSDictionary?

        var description: String { "\(status) \(message) \(resource.map { "\($0)" } ?? "")" }
    }

    static let codeNames: [RPCError.Code: String] = [
        .invalidArgument: "INVALID_ARGUMENT", .unauthenticated: "UNAUTHENTICATED",
        .permissionDenied: "PERMISSION_DENIED",
        .notFound: "NOT_FOUND", .alreadyExists: "ALREADY_EXISTS", .failedPrecondition: "FAILED_PRECONDITION",
        .resourceExhausted: "RESOURCE_EXHAUSTED", .unavailable: "UNAVAILABLE", .internalError: "INTERNAL",
    ]

    static func answers(_ call: Call, token: String?, engine: TestClient, grpc: GRPCTestClient) async throws -> (
        rest: Answer, grpc: Answer
    ) {
        let response = try await engine.send(
            call.method, "/v1/\(parent)\(call.path.replacingOccurrences(of: "{door}", with: "rest"))",
            authorization: token.map { "Bearer \($0)" }, body: call.body)
        let rest = Answer(
            status: response.status == 200 ? "OK" : response.errorStatus ?? "HTTP \(response.status)",
            message: response.errorMessage.replacingOccurrences(of: "-rest-", with: "-door-"),
            resource: response.status == 200 ? NSDictionary(dictionary: response.json) : nil)
        let metadata = token.map(GRPCTestClient.bearer) ?? [:]
        let viaGRPC: Answer
        do {
            let message = try await call.grpc(grpc, metadata, "grpc")
            let json =
                try JSONSerialization.jsonObject(with: Data(try message.jsonString().utf8)) as? [String: Any] ?? [:]
            viaGRPC = Answer(status: "OK", message: "", resource: NSDictionary(dictionary: json))
        } catch let error as RPCError {
            viaGRPC = Answer(
                status: codeNames[error.code] ?? "\(error.code)",
                message: error.message.replacingOccurrences(of: "-grpc-", with: "-door-"), resource: nil)
        }
        return (rest, viaGRPC)
    }

    /// What must agree: everything of a read, a search, a deletion, an attribute merge and a
    /// billing report; of a creation or update, the status and message only (the resources
    /// differ by the door that made them and the time they were written).
    static func comparable(_ answer: Answer, _ call: Call) -> Answer {
        guard [.POST, .PUT, .PATCH].contains(call.method),
            !["UpdateVehicleAttributes", "ReportBillableTrip", "SearchTrips", "SearchVehicles"].contains(call.name)
        else { return answer }
        return Answer(status: answer.status, message: answer.message, resource: nil)
    }

    @Test func everyTokenOfThePermissionTableGetsTheSameAnswerFromBothDoors() async throws {
        let engine = try await TestEngine.shared
        try await Self.createResources(on: engine)
        let statuses = try await GRPCTestClient.with(engine) { grpc in
            var statuses: Set<String> = []
            for (tokenName, token) in Self.tokens {
                for call in Self.calls(as: tokenName) {
                    let (rest, viaGRPC) = try await Self.answers(call, token: token(), engine: engine, grpc: grpc)
                    #expect(
                        Self.comparable(rest, call) == Self.comparable(viaGRPC, call),
                        "\(tokenName) \(call.name): REST \(rest) / gRPC \(viaGRPC)")
                    statuses.insert(rest.status)
                }
            }
            return statuses
        }
        #expect(statuses == ["OK", "PERMISSION_DENIED", "UNAUTHENTICATED", "FAILED_PRECONDITION"])
    }

    @Test func requestMistakesGetTheSameAnswerFromBothDoors() async throws {
        let engine = try await TestEngine.shared
        try await Self.createResources(on: engine)
        try await GRPCTestClient.with(engine) { grpc in
            for call in Self.mistakes {
                let (rest, viaGRPC) = try await Self.answers(call, token: Tokens.server, engine: engine, grpc: grpc)
                #expect(rest.status != "OK", "\(call.name): \(rest)")
                #expect(rest == viaGRPC, "\(call.name): REST \(rest) / gRPC \(viaGRPC)")
            }
        }
    }

    /// Vehicles dv and dw near Madrid with trips dt and dw-trip, made once through REST (dw is
    /// for the mistakes only, so that no other call adds trips to it meanwhile).
    static func createResources(on engine: TestClient) async throws {
        try await created.value(engine)
    }

    private static let created = ResourcesOnce()
}

/// Creates the suite's resources on first use only (both tests share them).
private actor ResourcesOnce {
    private var creation: Task<Void, any Error>?

    func value(_ engine: TestClient) async throws {
        let creation =
            self.creation
            ?? Task {
                let p = Fixtures.provider
                for (vehicleID, tripID) in [("dv", "dt"), ("dw", "dw-trip")] {
                    let vehicle = try await engine.send(
                        .POST, "\(p)/vehicles?vehicleId=\(vehicleID)", token: Tokens.server,
                        body: Fixtures.vehicleBody(latitude: 40.4, longitude: -3.7))
                    try #require(vehicle.status == 200, "\(vehicle)")
                    let trip = try await engine.send(
                        .POST, "\(p)/trips?tripId=\(tripID)", token: Tokens.server,
                        body: Fixtures.tripBody(vehicleID: vehicleID))
                    try #require(trip.status == 200, "\(trip)")
                }
            }
        self.creation = creation
        try await creation.value
    }
}
