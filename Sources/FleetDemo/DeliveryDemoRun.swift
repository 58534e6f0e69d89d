import FleetEngineClient
import FleetTokenProvider
import FleetTokens
import Foundation
import TokenServer

/// One play of `fleetauth demo --delivery`: a delivery backend (with a delivery server token)
/// plans a van per driver with two parcels on two stops; each driver app reports its van's
/// locations with its untrusted driver token from the token server, while the backend moves it
/// through its stops (as Google's sample backend does for untrusted drivers) and sets each
/// parcel's outcome; each consumer app follows its parcel to the end; an intruder tries other
/// people's vans and shipments. Then it checks what Fleet Engine stored.
struct DeliveryDemoRun {
    let settings: DemoSettings
    let servers: LocalFleet

    func play() async throws -> DeliveryDemoReport {
        try await DemoNetwork.using(settings, to: servers) { try await play(on: $0) }
    }

    /// Drives a delivery driver app for each of `sessions` for `duration`: the last location
    /// Fleet Engine acknowledged to each.
    private func driveAll(
        _ sessions: [String], on network: DemoNetwork, backend: FleetEngineClient, for drive: Duration,
        stats: DemoStats
    ) async throws -> [VehicleLocation?] {
        let count = sessions.count
        let settings = settings
        return try await withThrowingTaskGroup(of: (Int, VehicleLocation?).self) { group in
            for index in 0..<count {
                let driver = try network.client(kind: "delivery-driver", session: sessions[index], stats: stats)
                group.addTask {
                    (
                        index,
                        try await Self.drive(
                            index, driver: driver, backend: backend, for: drive,
                            every: .seconds(settings.reportInterval), stats: stats)
                    )
                }
            }
            var acknowledged = [VehicleLocation?](repeating: nil, count: count)
            for try await (index, location) in group { acknowledged[index] = location }
            return acknowledged
        }
    }

    /// The vans whose stored location is not the last one acknowledged to their driver, and
    /// how many parcels were delivered.
    private func tally(_ acknowledged: [VehicleLocation?], according backend: FleetEngineClient) async throws -> (
        lostVans: [String], parcelsDelivered: Int
    ) {
        var lost: [String] = [], succeeded = 0
        for index in acknowledged.indices {
            let stored = try await backend.deliveryVehicle("van-\(index)").lastLocation
            if acknowledged[index] == nil || stored?.location != acknowledged[index]?.location {
                lost.append("van-\(index)")
            }
            for parcel in ["a", "b"] {
                let task = try await backend.task("parcel-\(index)-\(parcel)")
                if task.state == .closed, task.taskOutcome == "SUCCEEDED" { succeeded += 1 }
            }
        }
        return (lost, succeeded)
    }

    private func play(on network: DemoNetwork) async throws -> DeliveryDemoReport {
        let count = settings.drivers
        let tokenServer = await servers.tokenServer
        let stats = DemoStats()
        FileHandle.standardOutput.write(
            Data(
                """
                FleetAuth delivery demo: \(count) delivery drivers with 2 parcels each, and \(count) consumers, for \(settings.duration) s, \(settings.tokenLifetime)-second tokens
                  token server  \(network.tokenServer.absoluteString)   local Fleet Engine  \(network.fleetEngine.absoluteString)/v1/providers/\(DemoRun.project)

                """.utf8))
        let serverKey = try DemoRun.key(tokenServer, .deliverySuperUser)
        let backend = FleetEngineClient(
            baseURL: network.fleetEngine, providerID: DemoRun.project,
            tokens: ServerTokenProvider(minter: try TokenMinter(key: serverKey), kind: .deliveryServer),
            transport: network.transport)
        let administration = AccountAdministration(
            store: tokenServer.store, hasher: PasswordHasher(cost: DemoRun.bcryptCost))
        for index in 0..<count { try await Self.enroll(index, backend: backend, administration: administration) }
        let driverSessions = try await DemoRun.logIn("delivery-driver", count, network)
        let consumerSessions = try await DemoRun.logIn("delivery-consumer", count, network)

        let intruder = DeliveryIntruder(
            drivers: try (0..<2).map {
                try network.client(kind: "delivery-driver", session: driverSessions[$0], stats: stats)
            },
            consumer: try network.client(kind: "delivery-consumer", session: consumerSessions[0], stats: stats))
        let start = ContinuousClock.now
        let drive = Duration.seconds(settings.duration)
        let consumers = Task {
            await withTaskGroup(of: (closed: Bool, readings: Int).self) { group in
                for index in 0..<count {
                    let client = try? network.client(
                        kind: "delivery-consumer", session: consumerSessions[index], stats: stats)
                    group.addTask { await Self.follow(index, client: client, every: .seconds(settings.followInterval)) }
                }
                return await group.reduce(into: (closed: 0, readings: 0)) {
                    $0.closed += $1.closed ? 1 : 0; $0.readings += $1.readings
                }
            }
        }
        let intrusions = Task { await intruder.tryEverything(until: start + drive) }
        let acknowledged = try await driveAll(
            driverSessions, on: network, backend: backend, for: drive, stats: stats)
        let followed = await consumers.value
        let intruded = await intrusions.value

        let (lost, succeeded) = try await tally(acknowledged, according: backend)
        return DeliveryDemoReport(
            settings: settings, counts: stats.current, latency: stats.latency,
            minted: DemoRun.tokensIssued(in: servers.metrics.exposition()),
            parcelsDelivered: succeeded, shipmentsFollowed: followed.closed, shipmentReadings: followed.readings,
            intruder: intruded,
            lostVans: lost, elapsed: ContinuousClock.now - start)
    }

    /// Van `van-i` at the start of its route, parcels `parcel-i-a` and `parcel-i-b` (shipments
    /// `shipment-i-a` and `shipment-i-b`) on two stops along it, and accounts
    /// `delivery-driver-i` (the van) and `delivery-consumer-i` (the second parcel's shipment).
    private static func enroll(_ index: Int, backend: FleetEngineClient, administration: AccountAdministration)
        async throws
    {
        let route = DemoRoute(index: index)
        _ = try await backend.createDeliveryVehicle(
            DeliveryVehicle(lastLocation: VehicleLocation(location: route.point(at: 0))), id: "van-\(index)")
        var stops: [VehicleStop] = []
        for (parcel, fraction) in [("a", 0.3), ("b", 0.8)] {
            let task = DeliveryTask(
                type: "DELIVERY", at: route.point(at: fraction), duration: .seconds(60),
                trackingID: "shipment-\(index)-\(parcel)")
            _ = try await backend.createTask(task, id: "parcel-\(index)-\(parcel)")
            stops.append(VehicleStop(at: route.point(at: fraction), taskIDs: ["parcel-\(index)-\(parcel)"]))
        }
        _ = try await backend.updateStops(stops, ofDeliveryVehicle: "van-\(index)")
        _ = try await administration.createAccount(
            username: "delivery-driver-\(index)", password: DemoEnrollment.password, roleName: "delivery-driver")
        _ = try await administration.createAccount(
            username: "delivery-consumer-\(index)", password: DemoEnrollment.password, roleName: "delivery-consumer")
        _ = try await administration.assign(
            Resource(.deliveryVehicle, id: "van-\(index)"), to: "delivery-driver-\(index)")
        _ = try await administration.assign(
            Resource(.trackingID, id: "shipment-\(index)-b"), to: "delivery-consumer-\(index)")
    }

    /// Drives van `i` round its route for `duration`, reporting every `interval` with the
    /// driver's token; the backend marks each stop enroute, arrived and completed as the van
    /// passes it, and sets the parcel's outcome. Returns the last acknowledged location.
    private static func drive(
        _ index: Int, driver: FleetEngineClient, backend: FleetEngineClient, for duration: Duration,
        every interval: Duration, stats: DemoStats
    ) async throws -> VehicleLocation? {
        let route = DemoRoute(index: index)
        let reporter = DeliveryVehicleReporter(deliveryVehicleID: "van-\(index)", client: driver)
        let stops = DeliveryVehicleReporter(deliveryVehicleID: "van-\(index)", client: backend)
        let acknowledged = Task {
            var last: VehicleLocation?
            for await event in reporter.events {
                stats.record(event)
                if case .accepted(let location, _) = event { last = location }
            }
            return last
        }
        // At each fraction of the drive, what the backend tells Fleet Engine.
        var plan: [(at: Double, step: () async throws -> Void)] = []
        for (parcel, arrival) in [("a", 0.3), ("b", 0.8)] {
            plan += [
                (arrival - 0.2, { _ = try await stops.enroute() }),
                (arrival, { _ = try await stops.arrived() }),
                (
                    arrival + 0.1,
                    {
                        _ = try await stops.completed()
                        _ = try await backend.setOutcome("SUCCEEDED", ofTask: "parcel-\(index)-\(parcel)")
                    }
                ),
            ]
        }
        let start = ContinuousClock.now
        while ContinuousClock.now - start < duration {
            let fraction = (ContinuousClock.now - start) / duration
            stats.locationReported()
            await reporter.report(
                VehicleLocation(
                    location: route.point(at: fraction), latlngAccuracy: 5, heading: route.heading(at: fraction),
                    speed: 6, updateTime: Date()))
            while let next = plan.first, next.at <= fraction {
                try await next.step()
                plan.removeFirst()
            }
            try await Task.sleep(for: interval)
        }
        for step in plan { try await step.step() }
        await reporter.finish()
        return await acknowledged.value
    }

    /// Consumer `i` follows shipment `shipment-i-b` until its parcel is closed: whether it saw
    /// that, and how many readings it took.
    private static func follow(_ index: Int, client: FleetEngineClient?, every interval: Duration) async -> (
        closed: Bool, readings: Int
    ) {
        guard let client else { return (false, 0) }
        var readings = 0, closed = false
        do {
            for try await info in ShipmentFollower(
                trackingID: "shipment-\(index)-b", client: client, interval: interval)
            {
                readings += 1
                closed = info.state == .closed
            }
        } catch {
            return (false, readings)
        }
        return (closed, readings)
    }
}

/// Someone with two delivery drivers' and a consumer's sessions who tries what their tokens
/// must not do: move another driver's van, change a van's stops with an untrusted driver
/// token, and follow another consumer's shipment.
struct DeliveryIntruder: Sendable {
    /// Driver 0's and driver 1's clients, with their own tokens.
    let drivers: [FleetEngineClient]
    /// Consumer 0's client.
    let consumer: FleetEngineClient

    /// The tricks, each tried every half second until `deadline`: by name, the attempts made,
    /// the refusals met and the first refusal's words.
    func tryEverything(until deadline: ContinuousClock.Instant) async -> [String: (
        attempts: Int, refused: Int, firstAnswer: String
    )] {
        let here = VehicleLocation(location: LatLng(latitude: 52.5, longitude: 13.4))
        let tricks: [(String, @Sendable () async throws -> Void)] = [
            (
                "driver 1's token moves van-0",
                { _ = try await drivers[1].updateLocation(here, ofDeliveryVehicle: "van-0") }
            ),
            (
                "driver 0's untrusted token changes van-0's stops",
                { _ = try await drivers[0].updateStops([], ofDeliveryVehicle: "van-0") }
            ),
            ("consumer 0's token follows shipment-1-b", { _ = try await consumer.taskTrackingInfo("shipment-1-b") }),
        ]
        var tally: [String: (attempts: Int, refused: Int, firstAnswer: String)] = [:]
        while ContinuousClock.now < deadline {
            for (name, trick) in tricks {
                var entry = tally[name] ?? (0, 0, "")
                entry.attempts += 1
                do {
                    try await trick()
                    entry.firstAnswer = entry.firstAnswer.isEmpty ? "accepted!" : entry.firstAnswer
                } catch {
                    entry.refused += 1
                    if entry.firstAnswer.isEmpty { entry.firstAnswer = "\(error)" }
                }
                tally[name] = entry
            }
            guard (try? await Task.sleep(for: .milliseconds(500))) != nil else { break }
        }
        return tally
    }
}
