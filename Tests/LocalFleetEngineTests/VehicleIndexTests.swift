import Foundation
import Logging
import TestSupport
import Testing

@testable import LocalFleetEngine

/// The indexes that searches and listings read (and a vehicle's trips) agree with a scan of the
/// whole fleet: the same matches in the same order, over random fleets, moves, state changes and deletions, with
/// vehicles on the circle's edge, across the antimeridian and around the poles.
@Suite("Vehicle indexes agree with a full scan")
struct VehicleIndexTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// The point `meters` from `origin` along `bearing` (radians) on the engine's sphere.
    static func destination(from origin: LatLng, meters: Double, bearing: Double) -> LatLng {
        let angle = meters / LatLng.earthRadiusMeters, radians = Double.pi / 180
        let latitude = origin.latitude * radians, longitude = origin.longitude * radians
        let newLatitude = asin(sin(latitude) * cos(angle) + cos(latitude) * sin(angle) * cos(bearing))
        var newLongitude =
            longitude + atan2(sin(bearing) * sin(angle) * cos(latitude), cos(angle) - sin(latitude) * sin(newLatitude))
        newLongitude = (newLongitude + 3 * .pi).truncatingRemainder(dividingBy: 2 * .pi) - .pi
        return LatLng(latitude: newLatitude / radians, longitude: newLongitude / radians)
    }

    static func vehicle(at point: LatLng, state: VehicleState = .online, category: Vehicle.VehicleType.Category = .auto)
        -> Vehicle
    {
        .with { vehicle in
            vehicle.vehicleState = state
            vehicle.supportedTripTypes = [.exclusive]
            vehicle.maximumCapacity = 4
            vehicle.vehicleType = .with { $0.category = category }
            vehicle.lastLocation = .with { location in
                location.location = point
                location.serverTime = .init(date: now)
            }
        }
    }

    static func search(around center: LatLng, radius: Int32) -> SearchVehiclesRequest {
        .with { request in
            request.pickupPoint = .with { $0.point = center }
            request.pickupRadiusMeters = radius
            request.count = 50
            request.minimumCapacity = 1
            request.tripTypes = [.exclusive]
            request.vehicleTypes = [.with { $0.category = .auto }]
            request.orderBy = .pickupPointEta
        }
    }

    /// What a scan of every vehicle finds for `request`.
    static func scanned(_ fleet: SavedState, _ request: SearchVehiclesRequest) -> [String] {
        VehicleSearch.candidates(
            for: request, among: [(nearest: 0, ids: Array(fleet.vehicles.keys))], of: fleet.vehicles,
            activeTrips: fleet.activeTrips, now: now,
            status: { fleet.trips[$0]?.tripStatus }
        ).map(\.id)
    }

    static func indexed(_ fleet: SavedState, _ request: SearchVehiclesRequest) -> [String] {
        fleet.search(request, now: now).map { String($0.vehicle.name.split(separator: "/").last!) }
    }

    /// Places where a grid's edges bite: a city, the antimeridian, near each pole, the equator
    /// on the prime meridian.
    static let places = [
        LatLng(latitude: 48.8566, longitude: 2.3522), LatLng(latitude: -16.5, longitude: 179.995),
        LatLng(latitude: 65, longitude: -179.99), LatLng(latitude: 89.97, longitude: 40),
        LatLng(latitude: -89.99, longitude: -120), LatLng(latitude: 0, longitude: 0),
    ]

    @Test(
        "searches find what a full scan finds, in the same order, as vehicles move, change state and go",
        arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func searchesAgreeWithAScan(seed: UInt64) {
        var random = SeededRandom(state: seed)
        var fleet = SavedState(provider: "p", snapshot: ProviderSnapshot())
        var ids: [String] = []
        func randomPoint() -> LatLng {
            let place = Self.places.randomElement(using: &random)!
            return Self.destination(
                from: place, meters: Double.random(in: 0...12_000, using: &random),
                bearing: Double.random(in: 0..<(2 * .pi), using: &random))
        }
        for index in 0..<1_500 {
            let id = "v\(index)"
            ids.append(id)
            fleet.publish(vehicle: Self.vehicle(at: randomPoint()), id: id)
        }
        for round in 0..<60 {
            // Moves (many across cells), state changes and deletions between searches.
            for _ in 0..<100 {
                let id = ids.randomElement(using: &random)!
                switch Int.random(in: 0..<10, using: &random) {
                case 0: fleet.publish(vehicle: nil, id: id)
                case 1: fleet.publish(vehicle: Self.vehicle(at: randomPoint(), state: .offline), id: id)
                default: fleet.publish(vehicle: Self.vehicle(at: randomPoint()), id: id)
                }
            }
            let center = randomPoint()
            let radius = Int32.random(in: SearchVehiclesRequest.radiusRange, using: &random)
            // Vehicles on the circle's edge: a hair inside, on it, a hair outside.
            for (offset, meters) in [Double(radius) - 0.001, Double(radius), Double(radius) + 0.001].enumerated() {
                let point = Self.destination(
                    from: center, meters: meters, bearing: Double.random(in: 0..<(2 * .pi), using: &random))
                fleet.publish(vehicle: Self.vehicle(at: point), id: "edge-\(round)-\(offset)")
            }
            let request = Self.search(around: center, radius: radius)
            #expect(
                Self.indexed(fleet, request) == Self.scanned(fleet, request),
                "seed \(seed), round \(round), around \(center), radius \(radius)")
        }
    }

    @Test("a circle holding a pole reaches every longitude")
    func aCircleHoldingAPole() {
        var fleet = SavedState(provider: "p", snapshot: ProviderSnapshot())
        for (index, longitude) in stride(from: -180.0, to: 180, by: 15).enumerated() {
            fleet.publish(vehicle: Self.vehicle(at: LatLng(latitude: 89.96, longitude: longitude)), id: "v\(index)")
        }
        let request = Self.search(around: LatLng(latitude: 90, longitude: 0), radius: 5_000)
        let found = Self.indexed(fleet, request)
        #expect(found.count == 24 && found == Self.scanned(fleet, request))
    }

    @Test("listing pages hold what a scan finds, in id order, with its total", arguments: [11, 12, 13, 14])
    func listingsAgreeWithAScan(seed: UInt64) throws {
        var random = SeededRandom(state: seed)
        var fleet = SavedState(provider: "p", snapshot: ProviderSnapshot())
        let categories: [Vehicle.VehicleType.Category] = [.auto, .taxi, .truck]
        let states: [VehicleState] = [.online, .offline, .unknownVehicleState]
        for _ in 0..<3_000 {
            let id = "v\(Int.random(in: 0..<2_000, using: &random))"
            if Int.random(in: 0..<8, using: &random) == 0 {
                fleet.publish(vehicle: nil, id: id)
            } else {
                var vehicle = Self.vehicle(
                    at: Self.places[0], state: states.randomElement(using: &random)!,
                    category: categories.randomElement(using: &random)!)
                vehicle.maximumCapacity = Int32.random(in: 1...6, using: &random)
                fleet.publish(vehicle: vehicle, id: id)
            }
        }
        for round in 0..<24 {
            let query = ListVehiclesRequest.with { query in
                query.vehicleTypeCategories = Array(
                    categories.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)))
                query.vehicleState = states.randomElement(using: &random)!
                if round % 3 == 0 { query.vehicleState = .unknownVehicleState }
                if round % 2 == 1 { query.minimumCapacity = .init(Int32.random(in: 1...6, using: &random)) }
                query.pageSize = Int32.random(in: 1...400, using: &random)
            }
            let expected = fleet.vehicles.keys.sorted().filter { id in
                VehicleListing.matches(fleet.vehicle(id)!, query, now: Self.now)
            }
            var listed: [String] = []
            var page = query
            while true {
                let answer = try fleet.listVehicles(page, now: Self.now)
                let total =
                    VehicleListing.filtersOnlyByKind(query)
                    ? Int(answer.totalSize) : fleet.countVehicles(query, now: Self.now)
                #expect(total == expected.count, "seed \(seed), round \(round)")
                #expect(answer.vehicles.count <= Int(query.pageSize))
                listed += answer.vehicles.map { String($0.name.split(separator: "/").last!) }
                guard !answer.nextPageToken.isEmpty else { break }
                page.pageToken = answer.nextPageToken
            }
            #expect(
                listed == expected, "seed \(seed), round \(round): \(listed.count) listed, \(expected.count) expected")
        }
    }

    @Test("an engine restarted on a large fleet answers the searches and pages it answered before")
    func aRestartAnswersTheSame() async throws {
        var random = SeededRandom(state: 7)
        let center = LatLng(latitude: 52.52, longitude: 13.40)
        let vehicles = (0..<10_000).map { _ in
            Self.vehicle(
                at: Self.destination(
                    from: center, meters: Double.random(in: 0...20_000, using: &random),
                    bearing: Double.random(in: 0..<(2 * .pi), using: &random)),
                state: Int.random(in: 0..<4, using: &random) == 0 ? .offline : .online)
        }
        let searches = (0..<20).map { _ in
            Self.search(
                around: Self.destination(
                    from: center, meters: Double.random(in: 0...15_000, using: &random),
                    bearing: Double.random(in: 0..<(2 * .pi), using: &random)),
                radius: Int32.random(in: 400...3_000, using: &random))
        }
        let listing = ListVehiclesRequest.with {
            $0.vehicleTypeCategories = [.auto]; $0.vehicleState = .online; $0.pageSize = 100
        }
        try await TestDatabases.withStore(at: TestDatabases.sqlite()) { store in
            let before = try await EngineState(store: store, provider: "p", logger: Logger(label: "test"))
            let accepted = try vehicles.enumerated().map { try before.createVehicle("v\($0.offset)", $0.element) }
            for write in accepted { _ = try await write.saved() }
            let restarted = try await EngineState(store: store, provider: "p", logger: Logger(label: "test"))
            for request in searches {
                let found = restarted.search(request, now: Self.now).map(\.vehicle.name)
                #expect(found == before.search(request, now: Self.now).map(\.vehicle.name))
                #expect(!found.isEmpty, "a search found nothing: the comparison shows little")
            }
            #expect(try restarted.listVehicles(listing, now: Self.now) == before.listVehicles(listing, now: Self.now))
        }
    }

    @Test(
        "a vehicle's trips, read from their index, are those a scan of every trip finds, as trips are reassigned and deleted"
    )
    func tripsOfAVehicleAgreeWithAScan() {
        var random = SeededRandom(state: 21)
        var fleet = SavedState(provider: "p", snapshot: ProviderSnapshot())
        let statuses: [TripStatus] = [.new, .enrouteToPickup, .enrouteToDropoff, .complete, .canceled]
        for step in 0..<5_000 {
            let id = "t\(Int.random(in: 0..<800, using: &random))"
            if Int.random(in: 0..<6, using: &random) == 0 {
                fleet.publish(trip: nil, id: id)
            } else {
                fleet.publish(
                    trip: Trip.with { trip in
                        trip.vehicleID =
                            Int.random(in: 0..<5, using: &random) == 0
                            ? "" : "v\(Int.random(in: 0..<40, using: &random))"
                        trip.tripStatus = statuses.randomElement(using: &random)!
                    }, id: id)
            }
            if step % 250 == 0 {
                for vehicle in (0..<40).map({ "v\($0)" }) {
                    let activeOnly = Bool.random(using: &random)
                    let indexed = fleet.trips(ofVehicle: vehicle) { !activeOnly || $0.isActive }.map(\.id)
                    let scanned = fleet.trips.filter {
                        $0.value.vehicleID == vehicle && (!activeOnly || $0.value.isActive)
                    }.keys.sorted()
                    #expect(indexed == scanned, "step \(step), vehicle \(vehicle)")
                }
            }
        }
    }

    @Test("sorted ids: inserts and removals keep the set, and reading on from any id gives what follows it")
    func sortedIDsAgreeWithASortedArray() {
        var random = SeededRandom(state: 99)
        var ids = SortedIDs()
        var model = Set<String>()
        for step in 0..<20_000 {
            let id = "id-\(Int.random(in: 0..<3_000, using: &random))"
            if Bool.random(using: &random) {
                #expect(ids.insert(id) == model.insert(id).inserted)
            } else {
                #expect(ids.remove(id) == (model.remove(id) != nil))
            }
            if step % 1_000 == 0 {
                let sorted = model.sorted()
                let from = Bool.random(using: &random) ? nil : "id-\(Int.random(in: 0..<3_000, using: &random))"
                let following = Array(IteratorSequence(ids.ids(after: from)))
                #expect(following == sorted.filter { from == nil || $0 > from! } && ids.count == model.count)
            }
        }
    }
}
