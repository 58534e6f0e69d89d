import FleetAuthServerHTTP
import FleetEngineProtos
import FleetTokens
import GRPCCore
import SwiftProtobuf
import TestSupport
import Testing

/// The gRPC door with grpc-swift's own generated client: each served method's success and its
/// refusals, health checking, and bad input answered with a clear status.
@Suite("gRPC door")
struct GRPCDoorTests {
    static let parent = "providers/\(TestKeys.project)"

    static func vehicleName(_ id: String) -> String { "\(parent)/vehicles/\(id)" }
    static func tripName(_ id: String) -> String { "\(parent)/trips/\(id)" }

    /// A vehicle as the REST fixtures make it, read from the same proto3 JSON; by default far
    /// from the vehicles other suites search for (Berlin, Madrid).
    static func vehicle(latitude: Double = 10.5, longitude: Double = 20.5) throws -> Maps_Fleetengine_V1_Vehicle {
        try Maps_Fleetengine_V1_Vehicle(jsonString: Fixtures.vehicleBody(latitude: latitude, longitude: longitude))
    }

    @Test func createsGetsUpdatesAndSearchesVehicles() async throws {
        try await GRPCTestClient.with(try await TestEngine.shared) { grpc in
            let created = try await grpc.vehicles.createVehicle(
                .with {
                    $0.parent = Self.parent; $0.vehicleID = "g-vehicle"; $0.vehicle = try! Self.vehicle(latitude: 48.1)
                },
                metadata: GRPCTestClient.bearer(Tokens.server))
            #expect(created.name == Self.vehicleName("g-vehicle"))
            #expect(created.vehicleState == .online)
            #expect(created.lastLocation.hasServerTime)

            let read = try await grpc.vehicles.getVehicle(
                .with { $0.name = Self.vehicleName("g-vehicle") }, metadata: GRPCTestClient.bearer(Tokens.server))
            #expect(read.supportedTripTypes == [.exclusive, .shared])
            #expect(read.vehicleType.category == .auto)

            let moved = try await grpc.vehicles.updateVehicle(
                .with {
                    $0.name = Self.vehicleName("g-vehicle")
                    $0.vehicle = .with {
                        $0.lastLocation = .with {
                            $0.location = .with {
                                $0.latitude = 48.2; $0.longitude = 11.5
                            }
                        }
                    }
                    $0.updateMask = .with { $0.paths = ["last_location"] }
                },
                metadata: GRPCTestClient.bearer(Tokens.driver("g-vehicle")))
            #expect(moved.lastLocation.location.latitude == 48.2)
            #expect(moved.maximumCapacity == 4)

            let found = try await grpc.vehicles.searchVehicles(
                .with {
                    $0.parent = Self.parent
                    $0.pickupPoint = .with {
                        $0.point = .with {
                            $0.latitude = 48.2; $0.longitude = 11.5
                        }
                    }
                    $0.pickupRadiusMeters = 2000
                    $0.count = 10
                    $0.minimumCapacity = 1
                    $0.tripTypes = [.exclusive]
                    $0.vehicleTypes = [.with { $0.category = .auto }]
                    $0.orderBy = .pickupPointStraightDistance
                },
                metadata: GRPCTestClient.bearer(Tokens.server))
            #expect(found.matches.map(\.vehicle.name) == [Self.vehicleName("g-vehicle")])
            #expect(found.matches.first?.vehicleMatchType == .exclusive)
            #expect(found.matches.first?.vehiclePickupStraightLineDistanceMeters.value == 0)
        }
    }

    @Test func createsGetsAndUpdatesTrips() async throws {
        try await GRPCTestClient.with(try await TestEngine.shared) { grpc in
            let created = try await grpc.trips.createTrip(
                .with {
                    $0.parent = Self.parent
                    $0.tripID = "g-trip"
                    $0.trip = try! Maps_Fleetengine_V1_Trip(jsonString: Fixtures.tripBody(vehicleID: "v1"))
                },
                metadata: GRPCTestClient.bearer(Tokens.server))
            #expect(created.name == Self.tripName("g-trip"))
            #expect(created.tripStatus == .new)
            #expect(created.vehicleID == "v1")

            let read = try await grpc.trips.getTrip(
                .with { $0.name = Self.tripName("g-trip") }, metadata: GRPCTestClient.bearer(Tokens.consumer("g-trip")))
            #expect(read.pickupPoint.point.latitude == 52.52)

            let started = try await grpc.trips.updateTrip(
                .with {
                    $0.name = Self.tripName("g-trip")
                    $0.trip = .with { $0.tripStatus = .enrouteToPickup }
                    $0.updateMask = .with { $0.paths = ["trip_status"] }
                },
                metadata: GRPCTestClient.bearer(Tokens.driver("v1")))
            #expect(started.tripStatus == .enrouteToPickup)
        }
    }

    @Test func listsVehiclesPageByPage() async throws {
        try await GRPCTestClient.with(try await TestEngine.shared) { grpc in
            let metadata = GRPCTestClient.bearer(Tokens.server)
            for id in ["g-list-a", "g-list-b", "g-list-c"] {
                var vehicle = try Self.vehicle(latitude: 10)
                vehicle.attributes = [
                    .with {
                        $0.key = "list"; $0.stringValue = "paging"
                    }
                ]
                _ = try await grpc.vehicles.createVehicle(
                    .with {
                        $0.parent = Self.parent; $0.vehicleID = id; $0.vehicle = vehicle
                    }, metadata: metadata)
            }
            var request = Maps_Fleetengine_V1_ListVehiclesRequest.with {
                $0.parent = Self.parent
                $0.vehicleTypeCategories = [.auto]
                $0.requiredAttributes = ["list:paging"]
                $0.pageSize = 2
            }
            let first = try await grpc.vehicles.listVehicles(request, metadata: metadata)
            #expect(first.vehicles.map(\.name) == [Self.vehicleName("g-list-a"), Self.vehicleName("g-list-b")])
            #expect(first.totalSize == 3)
            #expect(!first.nextPageToken.isEmpty)
            request.pageToken = first.nextPageToken
            let second = try await grpc.vehicles.listVehicles(request, metadata: metadata)
            #expect(second.vehicles.map(\.name) == [Self.vehicleName("g-list-c")])
            #expect(second.nextPageToken.isEmpty)

            request.pageToken = ""
            request.vehicleState = .offline
            #expect(try await grpc.vehicles.listVehicles(request, metadata: metadata).totalSize == 0)
        }
    }

    @Test func mergesAttributesByKey() async throws {
        try await GRPCTestClient.with(try await TestEngine.shared) { grpc in
            let metadata = GRPCTestClient.bearer(Tokens.server)
            var vehicle = try Self.vehicle()
            vehicle.attributes = [
                .with {
                    $0.key = "colour"; $0.stringValue = "red"
                },
                .with {
                    $0.key = "seats"; $0.numberValue = 4
                },
            ]
            _ = try await grpc.vehicles.createVehicle(
                .with {
                    $0.parent = Self.parent; $0.vehicleID = "g-attributes"; $0.vehicle = vehicle
                }, metadata: metadata)
            let merged = try await grpc.vehicles.updateVehicleAttributes(
                .with {
                    $0.name = Self.vehicleName("g-attributes")
                    $0.attributes = [
                        .with {
                            $0.key = "colour"; $0.stringValue = "blue"
                        },
                        .with {
                            $0.key = "pets"; $0.boolValue = true
                        },
                    ]
                },
                metadata: metadata)
            #expect(merged.attributes.map(\.key) == ["colour", "seats", "pets"])
            #expect(merged.attributes.first?.stringValue == "blue")
            let read = try await grpc.vehicles.getVehicle(
                .with { $0.name = Self.vehicleName("g-attributes") }, metadata: metadata)
            #expect(read.attributes == merged.attributes)
        }
    }

    @Test func deletesVehiclesWithoutUnfinishedTripsAndSearchesTrips() async throws {
        try await GRPCTestClient.with(try await TestEngine.shared) { grpc in
            let metadata = GRPCTestClient.bearer(Tokens.server)
            _ = try await grpc.vehicles.createVehicle(
                .with {
                    $0.parent = Self.parent; $0.vehicleID = "g-doomed"; $0.vehicle = try! Self.vehicle()
                }, metadata: metadata)
            for id in ["g-doomed-1", "g-doomed-2", "g-doomed-3"] {
                _ = try await grpc.trips.createTrip(
                    .with {
                        $0.parent = Self.parent; $0.tripID = id;
                        $0.trip = try! Maps_Fleetengine_V1_Trip(jsonString: Fixtures.tripBody(vehicleID: "g-doomed"))
                    },
                    metadata: metadata)
            }
            var search = Maps_Fleetengine_V1_SearchTripsRequest.with {
                $0.parent = Self.parent; $0.vehicleID = "g-doomed"; $0.pageSize = 2
            }
            let first = try await grpc.trips.searchTrips(
                search, metadata: GRPCTestClient.bearer(Tokens.driver("g-doomed")))
            #expect(first.trips.map(\.name) == [Self.tripName("g-doomed-1"), Self.tripName("g-doomed-2")])
            search.pageToken = first.nextPageToken
            let second = try await grpc.trips.searchTrips(
                search, metadata: GRPCTestClient.bearer(Tokens.driver("g-doomed")))
            #expect(second.trips.map(\.name) == [Self.tripName("g-doomed-3")] && second.nextPageToken.isEmpty)

            let refused = await GRPCOutcome.of {
                try await grpc.vehicles.deleteVehicle(
                    .with { $0.name = Self.vehicleName("g-doomed") }, metadata: metadata)
            }
            #expect(refused.code == .failedPrecondition && refused.message.contains("g-doomed-1"), "\(refused)")
            let unfinished = await GRPCOutcome.of {
                try await grpc.trips.deleteTrip(.with { $0.name = Self.tripName("g-doomed-1") }, metadata: metadata)
            }
            #expect(unfinished.code == .failedPrecondition, "\(unfinished)")

            for id in ["g-doomed-1", "g-doomed-2", "g-doomed-3"] {
                _ = try await grpc.trips.updateTrip(
                    .with {
                        $0.name = Self.tripName(id); $0.trip = .with { $0.tripStatus = .canceled };
                        $0.updateMask = .with { $0.paths = ["trip_status"] }
                    },
                    metadata: metadata)
            }
            search.activeTripsOnly = true
            search.pageToken = ""
            #expect(try await grpc.trips.searchTrips(search, metadata: metadata).trips.isEmpty)

            _ = try await grpc.vehicles.deleteVehicle(
                .with { $0.name = Self.vehicleName("g-doomed") }, metadata: metadata)
            _ = try await grpc.trips.deleteTrip(.with { $0.name = Self.tripName("g-doomed-1") }, metadata: metadata)
            let gone = await GRPCOutcome.of {
                try await grpc.vehicles.getVehicle(.with { $0.name = Self.vehicleName("g-doomed") }, metadata: metadata)
            }
            #expect(gone.code == .notFound, "\(gone)")
            let goneTrip = await GRPCOutcome.of {
                try await grpc.trips.getTrip(.with { $0.name = Self.tripName("g-doomed-1") }, metadata: metadata)
            }
            #expect(goneTrip.code == .notFound, "\(goneTrip)")
        }
    }

    @Test func searchesAsGoogleDescribesByCurrentTripsAttributesAndStaleness() async throws {
        // An engine of its own, whose clock the test moves (`/emulator/v1/clock`) rather than wait.
        try await TestEngine.with(configure: { $0.console = .loopback }) { engine in
            try await GRPCTestClient.with(engine) { grpc in
                let metadata = GRPCTestClient.bearer(Tokens.server)
                try await engine.moveClock(#"{"freeze":true}"#)
                for id in ["g-search-free", "g-search-busy"] {
                    var vehicle = try Self.vehicle(latitude: -20, longitude: 30)
                    if id == "g-search-free" {
                        vehicle.attributes = [
                            .with {
                                $0.key = "colour"; $0.stringValue = "red"
                            }
                        ]
                    }
                    _ = try await grpc.vehicles.createVehicle(
                        .with {
                            $0.parent = Self.parent; $0.vehicleID = id; $0.vehicle = vehicle
                        }, metadata: metadata)
                }
                _ = try await grpc.trips.createTrip(
                    .with {
                        $0.parent = Self.parent; $0.tripID = "g-search-ride";
                        $0.trip = try! Maps_Fleetengine_V1_Trip(
                            jsonString: Fixtures.tripBody(vehicleID: "g-search-busy"))
                    },
                    metadata: metadata)
                _ = try await grpc.trips.updateTrip(
                    .with {
                        $0.name = Self.tripName("g-search-ride"); $0.trip = .with { $0.tripStatus = .enrouteToDropoff };
                        $0.updateMask = .with { $0.paths = ["trip_status"] }
                    },
                    metadata: metadata)

                func search(_ configure: (inout Maps_Fleetengine_V1_SearchVehiclesRequest) -> Void) async throws
                    -> [String]
                {
                    var request = Maps_Fleetengine_V1_SearchVehiclesRequest.with {
                        $0.parent = Self.parent
                        $0.pickupPoint = .with {
                            $0.point = .with {
                                $0.latitude = -20; $0.longitude = 30
                            }
                        }
                        $0.pickupRadiusMeters = 1000
                        $0.count = 10
                        $0.minimumCapacity = 1
                        $0.tripTypes = [.exclusive]
                        $0.vehicleTypes = [.with { $0.category = .auto }]
                        $0.orderBy = .pickupPointEta
                    }
                    configure(&request)
                    let found = try await grpc.vehicles.searchVehicles(request, metadata: metadata)
                    #expect(
                        found.matches.allSatisfy {
                            $0.orderedBy == .pickupPointStraightDistance && $0.requestedOrderedBy == .pickupPointEta
                        })
                    return found.matches.map {
                        "\($0.vehicle.name.split(separator: "/").last ?? "") \($0.vehicleMatchType) \($0.tripType)"
                    }
                }
                #expect(try await search { _ in } == ["g-search-free exclusive exclusive"])
                #expect(
                    try await search { $0.includeBackToBack = true }.sorted() == [
                        "g-search-busy backToBack exclusive", "g-search-free exclusive exclusive",
                    ])
                #expect(try await search { $0.currentTripsPresent = .none } == ["g-search-free exclusive exclusive"])
                #expect(
                    try await search {
                        $0.tripTypes = [.shared]; $0.currentTripsPresent = .any
                    }.sorted()
                        == ["g-search-busy carpool shared", "g-search-free exclusive shared"])
                #expect(
                    try await search {
                        $0.currentTripsPresent = .any;
                        $0.requiredAttributes = [
                            .with {
                                $0.key = "colour"; $0.stringValue = "red"
                            }
                        ]
                    }
                        == ["g-search-free exclusive exclusive"])

                // Both go stale as the engine's time moves on 6 s; then one is moved, and only it is
                // fresh within 3 s.
                try await engine.moveClock(#"{"advance":"6s"}"#)
                _ = try await grpc.vehicles.updateVehicle(
                    .with {
                        $0.name = Self.vehicleName("g-search-free")
                        $0.vehicle = .with {
                            $0.lastLocation = .with {
                                $0.location = .with {
                                    $0.latitude = -20; $0.longitude = 30
                                }
                            }
                        }
                        $0.updateMask = .with { $0.paths = ["last_location"] }
                    },
                    metadata: metadata)
                #expect(
                    try await search {
                        $0.currentTripsPresent = .any; $0.maximumStaleness = .with { $0.seconds = 3 }
                    } == ["g-search-free exclusive exclusive"])
            }
        }
    }

    @Test func answersHealthChecks() async throws {
        try await GRPCTestClient.with(try await TestEngine.shared) { grpc in
            for service in ["", "maps.fleetengine.v1.VehicleService", "maps.fleetengine.v1.TripService"] {
                let answer = try await grpc.health.check(.with { $0.service = service })
                #expect(answer.status == .serving, "\(service)")
            }
            let unknown = await GRPCOutcome.of { try await grpc.health.check(.with { $0.service = "no.such.Service" }) }
            #expect(unknown.code == .notFound, "\(unknown)")
        }
    }

    @Test func watchTellsEachServiceAndLetsTheCallerHangUp() async throws {
        try await GRPCTestClient.with(try await TestEngine.shared) { grpc in
            let cases: [(String, Grpc_Health_V1_HealthCheckResponse.ServingStatus)] = [
                ("maps.fleetengine.v1.VehicleService", .serving), ("", .serving), ("no.such.Service", .serviceUnknown),
            ]
            for (service, expected) in cases {
                // The first status, then the caller hangs up on a stream that would go on.
                let first = try await grpc.health.watch(.with { $0.service = service }) {
                    response -> Grpc_Health_V1_HealthCheckResponse.ServingStatus? in
                    for try await message in response.messages { return message.status }
                    return nil
                }
                #expect(first == expected, "\(service)")
            }
            #expect(
                try await grpc.health.check(.with { $0.service = "" }).status == .serving,
                "the door serves on after the callers hung up")
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func watchSaysNotServingWhenTheEngineShutsDownAndDoesNotHoldItUp() async throws {
        // The watcher outlives the engine's run, so that it sees the shutdown.
        let watcher = try await TestEngine.with { engine in
            try await Self.watching("maps.fleetengine.v1.TripService") { body in
                try await GRPCTestClient.with(engine, body)
            }
        }
        #expect(try await watcher.value == [.serving, .notServing])
    }

    /// A task watching `service`'s health on a client that `connect` hands out, with every
    /// status it hears; returns once the first came.
    private static func watching(
        _ service: String,
        on connect:
            @escaping @Sendable (
                @Sendable (GRPCTestClient) async throws -> [Grpc_Health_V1_HealthCheckResponse.ServingStatus]
            ) async throws
            -> [Grpc_Health_V1_HealthCheckResponse.ServingStatus]
    ) async throws -> Task<[Grpc_Health_V1_HealthCheckResponse.ServingStatus], any Error> {
        let (seen, sawFirst) = AsyncStream.makeStream(of: Void.self)
        let watcher = Task {
            try await connect { grpc in
                try await grpc.health.watch(.with { $0.service = service }) { response in
                    var statuses: [Grpc_Health_V1_HealthCheckResponse.ServingStatus] = []
                    for try await message in response.messages {
                        statuses.append(message.status)
                        sawFirst.yield()
                    }
                    return statuses
                }
            }
        }
        _ = await seen.first { _ in true }
        return watcher
    }

    @Test(.timeLimit(.minutes(3)))
    func healthSaysNotServingAsTheEngineDrains() async throws {
        let lifecycle = ServerLifecycle()
        try await TestEngine.with(configure: { $0.lifecycle = lifecycle }) { engine in
            try await GRPCTestClient.with(engine) { grpc in
                #expect(try await grpc.health.check(.with { $0.service = "" }).status == .serving)
                let watcher = try await Self.watching("maps.fleetengine.v1.VehicleService") { body in
                    try await body(grpc)
                }
                // SIGTERM's first step: the engine still serves, but a balancer must look elsewhere.
                lifecycle.beginDraining()
                #expect(try await watcher.value == [.serving, .notServing], "a watch ends as draining begins")
                #expect(try await grpc.health.check(.with { $0.service = "" }).status == .notServing)
                #expect(
                    try await grpc.health.check(.with { $0.service = "maps.fleetengine.v1.TripService" }).status
                        == .notServing)
                let lateWatch = try await grpc.health.watch(.with { $0.service = "" }) { response in
                    try await response.messages.reduce(into: []) { $0.append($1.status) }
                }
                #expect(lateWatch == [.notServing], "a watch begun while draining says so and ends")
            }
        }
    }

    /// One refused gRPC call and the status it must get.
    struct Refusal: Sendable, CustomTestStringConvertible {
        let name: String
        let code: RPCError.Code
        let phrase: String
        let call: @Sendable (GRPCTestClient) async throws -> Void

        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "no token", code: .unauthenticated, phrase: "token") { grpc in
            _ = try await grpc.vehicles.getVehicle(.with { $0.name = vehicleName("v1") })
        },
        Refusal(name: "not a JWT", code: .unauthenticated, phrase: "malformed") { grpc in
            _ = try await grpc.vehicles.getVehicle(
                .with { $0.name = vehicleName("v1") }, metadata: GRPCTestClient.bearer("not-a-jwt"))
        },
        Refusal(name: "a stranger's token", code: .unauthenticated, phrase: "not a trusted service account") { grpc in
            _ = try await grpc.vehicles.getVehicle(
                .with { $0.name = vehicleName("v1") },
                metadata: GRPCTestClient.bearer(Tokens.mint(TestKeys.stranger, .server)))
        },
        Refusal(name: "a driver reads another vehicle", code: .permissionDenied, phrase: "vehicleid") { grpc in
            _ = try await grpc.vehicles.getVehicle(
                .with { $0.name = vehicleName("v2") }, metadata: GRPCTestClient.bearer(Tokens.driver("v1")))
        },
        Refusal(name: "a driver creates a vehicle", code: .permissionDenied, phrase: "server token") { grpc in
            _ = try await grpc.vehicles.createVehicle(
                .with {
                    $0.parent = parent; $0.vehicleID = "g-refused"; $0.vehicle = try! vehicle()
                },
                metadata: GRPCTestClient.bearer(Tokens.driver("g-refused")))
        },
        Refusal(name: "a consumer reads another trip", code: .permissionDenied, phrase: "tripid") { grpc in
            _ = try await grpc.trips.getTrip(
                .with { $0.name = tripName("t2") }, metadata: GRPCTestClient.bearer(Tokens.consumer("t1")))
        },
        Refusal(name: "a driver reads a trip of another vehicle", code: .permissionDenied, phrase: "assigned") { grpc in
            _ = try await grpc.trips.getTrip(
                .with { $0.name = tripName("t2") }, metadata: GRPCTestClient.bearer(Tokens.driver("v1")))
        },
        Refusal(name: "another provider", code: .permissionDenied, phrase: "provider") { grpc in
            _ = try await grpc.vehicles.getVehicle(
                .with { $0.name = "providers/other/vehicles/v1" }, metadata: GRPCTestClient.bearer(Tokens.server))
        },
        Refusal(name: "a missing vehicle", code: .notFound, phrase: "does not exist") { grpc in
            _ = try await grpc.vehicles.getVehicle(
                .with { $0.name = vehicleName("g-missing") }, metadata: GRPCTestClient.bearer(Tokens.server))
        },
        Refusal(name: "a missing trip", code: .notFound, phrase: "does not exist") { grpc in
            _ = try await grpc.trips.getTrip(
                .with { $0.name = tripName("g-missing") }, metadata: GRPCTestClient.bearer(Tokens.server))
        },
        Refusal(name: "a vehicle that exists", code: .alreadyExists, phrase: "already exists") { grpc in
            _ = try await grpc.vehicles.createVehicle(
                .with {
                    $0.parent = parent; $0.vehicleID = "v1"; $0.vehicle = try! vehicle()
                }, metadata: GRPCTestClient.bearer(Tokens.server))
        },
        Refusal(name: "no vehicle id", code: .invalidArgument, phrase: "vehicleId is required") { grpc in
            _ = try await grpc.vehicles.createVehicle(
                .with {
                    $0.parent = parent; $0.vehicle = try! vehicle()
                }, metadata: GRPCTestClient.bearer(Tokens.server))
        },
        Refusal(name: "no vehicle type", code: .invalidArgument, phrase: "vehicleType is required") { grpc in
            var body = try! vehicle()
            body.clearVehicleType()
            _ = try await grpc.vehicles.createVehicle(
                .with {
                    $0.parent = parent; $0.vehicleID = "g-typeless"; $0.vehicle = body
                }, metadata: GRPCTestClient.bearer(Tokens.server))
        },
        Refusal(name: "no update mask", code: .invalidArgument, phrase: "updateMask is required") { grpc in
            _ = try await grpc.vehicles.updateVehicle(
                .with {
                    $0.name = vehicleName("v1"); $0.vehicle = try! vehicle()
                }, metadata: GRPCTestClient.bearer(Tokens.server))
        },
        Refusal(name: "a driver sets the capacity", code: .permissionDenied, phrase: "a driver token may set only") {
            grpc in
            _ = try await grpc.vehicles.updateVehicle(
                .with {
                    $0.name = vehicleName("v1"); $0.vehicle = .with { $0.maximumCapacity = 9 };
                    $0.updateMask = .with { $0.paths = ["maximum_capacity"] }
                },
                metadata: GRPCTestClient.bearer(Tokens.driver("v1")))
        },
        Refusal(name: "a name that is not a vehicle's", code: .invalidArgument, phrase: "name must be") { grpc in
            _ = try await grpc.vehicles.getVehicle(
                .with { $0.name = "vehicles/v1" }, metadata: GRPCTestClient.bearer(Tokens.server))
        },
        Refusal(name: "a search radius too small", code: .invalidArgument, phrase: "pickupRadiusMeters") { grpc in
            _ = try await grpc.vehicles.searchVehicles(
                .with {
                    $0.parent = parent
                    $0.pickupPoint = .with { $0.point = .with { $0.latitude = 52.52 } }
                    $0.pickupRadiusMeters = 10
                },
                metadata: GRPCTestClient.bearer(Tokens.server))
        },
        Refusal(name: "a field the engine does not keep", code: .invalidArgument, phrase: "field number 10") { grpc in
            var body = try! vehicle()
            // Field 10 of Vehicle is Google's license_plate, which the engine's .proto leaves out.
            try! body.merge(serializedBytes: [0x52, 0x02, 0x0A, 0x00] as [UInt8])
            _ = try await grpc.vehicles.createVehicle(
                .with {
                    $0.parent = parent; $0.vehicleID = "g-plate"; $0.vehicle = body
                }, metadata: GRPCTestClient.bearer(Tokens.server))
        },
    ]

    @Test(arguments: refusals)
    func refuses(_ refusal: Refusal) async throws {
        try await GRPCTestClient.with(try await TestEngine.shared) { grpc in
            let outcome = await GRPCOutcome.of { try await refusal.call(grpc) }
            #expect(outcome.code == refusal.code, "\(outcome)")
            #expect(outcome.message.contains(refusal.phrase), "\(outcome)")
            #expect(!outcome.message.contains("eyJ"), "a status message must never hold a token")
        }
    }

    @Test func answersBadInputWithAClearStatusAndGoesOn() async throws {
        try await GRPCTestClient.with(try await TestEngine.shared) { grpc in
            let create = Maps_Fleetengine_V1_VehicleService.Method.CreateVehicle.descriptor
            let metadata = GRPCTestClient.bearer(Tokens.server)

            let malformed = await grpc.rawCall(create, bytes: [0x0A, 0xFF, 0xFF, 0xFF], metadata: metadata)
            #expect(malformed.code == .invalidArgument, "\(malformed)")

            let unknownMethod = await grpc.rawCall(
                MethodDescriptor(fullyQualifiedService: "maps.fleetengine.v1.VehicleService", method: "FlyVehicle"),
                bytes: [], metadata: metadata)
            #expect(unknownMethod.code == .unimplemented, "\(unknownMethod)")

            var many = try Self.vehicle()
            many.attributes = (0..<300).map { index in
                .with {
                    $0.key = "k\(index)"; $0.stringValue = String(repeating: "x", count: 250)
                }
            }
            let tooMany = await GRPCOutcome.of {
                try await grpc.vehicles.createVehicle(
                    .with {
                        $0.parent = Self.parent; $0.vehicleID = "g-many"; $0.vehicle = many
                    }, metadata: metadata)
            }
            #expect(tooMany.code == .invalidArgument && tooMany.message.contains("at most 100"), "\(tooMany)")

            // Under gRPC's 4 MiB a message is read whole, over many of the connection's flow
            // control windows, two at once on one connection, and reaches the engine's rules.
            let big = try {
                var vehicle = try Self.vehicle()
                vehicle.attributes = [
                    .with {
                        $0.key = "k"; $0.stringValue = String(repeating: "x", count: 3 << 20)
                    }
                ]
                return vehicle
            }()
            async let first = GRPCOutcome.of {
                try await grpc.vehicles.createVehicle(
                    .with {
                        $0.parent = Self.parent; $0.vehicleID = "g-big"; $0.vehicle = big
                    }, metadata: metadata)
            }
            async let second = GRPCOutcome.of {
                try await grpc.vehicles.createVehicle(
                    .with {
                        $0.parent = Self.parent; $0.vehicleID = "g-big-2"; $0.vehicle = big
                    }, metadata: metadata)
            }
            for outcome in await [first, second] {
                #expect(
                    outcome.code == .invalidArgument && outcome.message.contains("longer than 256 characters"),
                    "\(outcome)")
            }

            // Over gRPC's 4 MiB the message is refused as its bytes pass the limit.
            var huge = try Self.vehicle()
            huge.attributes = [
                .with {
                    $0.key = "k"; $0.stringValue = String(repeating: "x", count: 5 << 20)
                }
            ]
            let oversized = await grpc.rawCall(
                create,
                bytes: try Maps_Fleetengine_V1_CreateVehicleRequest.with {
                    $0.parent = Self.parent; $0.vehicleID = "g-huge"; $0.vehicle = huge
                }
                .serializedBytes(),
                metadata: metadata)
            #expect(
                oversized.code == .resourceExhausted && oversized.message.contains("larger than 4194304 bytes"),
                "\(oversized)")

            var gzip = CallOptions.defaults
            gzip.compression = .gzip
            let compressed = await grpc.rawCall(
                create,
                bytes: try Maps_Fleetengine_V1_CreateVehicleRequest.with {
                    $0.parent = Self.parent; $0.vehicleID = "g-gzip"
                }.serializedBytes(),
                metadata: metadata, options: gzip)
            #expect(compressed.code == .unimplemented && compressed.message.contains("not supported"), "\(compressed)")

            let still = try await grpc.vehicles.getVehicle(
                .with { $0.name = Self.vehicleName("v1") }, metadata: metadata)
            #expect(still.name == Self.vehicleName("v1"))
        }
    }
}
