import FleetAuthLocking
import Foundation
import TestSupport
import Testing

/// Every delivery write the engine acknowledged is still there after `kill -9` and a restart,
/// and a batch of tasks is there whole or not at all.
@Suite("Delivery durability across kill -9")
struct DeliveryDurabilityTests {
    static let batchSize = 50

    static func taskJSON(_ type: String = "DELIVERY", tracking: String = "ship") -> String {
        #"{"type":"\#(type)","state":"OPEN","trackingId":"\#(tracking)","taskDuration":"60s","plannedLocation":{"point":{"latitude":35.6,"longitude":139.7}}}"#
    }

    static func batchJSON(_ ids: [String]) -> String {
        #"{"requests":[\#(ids.map { #"{"taskId":"\#($0)","task":\#(taskJSON())}"# }.joined(separator: ","))]}"#
    }

    @Test func acknowledgedWritesSurviveAHardKillAndBatchesAreWholeOrAbsent() async throws {
        let folder = try TestEngine.makeFolder()
        let (engine, client, _) = try await ChildEngine.start(folder: folder)
        let server = Tokens.deliveryServer
        let p = Fixtures.provider
        try #require(
            try await client.send(.POST, "\(p)/deliveryVehicles?deliveryVehicleId=dv", token: server, body: "{}").status
                == 200)
        let stops = (0..<3).map { "stop-\($0)" }
        try #require(
            try await client.send(
                .POST, "\(p)/tasks:batchCreate", token: server, body: Self.batchJSON(stops + ["lone"])
            ).status == 200)
        let segments = stops.map {
            #"{"stop":{"state":"NEW","plannedLocation":{"point":{"latitude":35.6,"longitude":139.7}},"tasks":[{"taskId":"\#($0)"}]}}"#
        }
        let assigned = try await client.send(
            .PATCH, "\(p)/deliveryVehicles/dv?updateMask=remainingVehicleJourneySegments", token: server,
            body: #"{"remainingVehicleJourneySegments":[\#(segments.joined(separator: ","))]}"#)
        try #require(assigned.status == 200, "\(assigned)")
        let closed = try await client.send(
            .PATCH, "\(p)/tasks/lone?updateMask=state,taskOutcome", token: server,
            body: #"{"state":"CLOSED","taskOutcome":"SUCCEEDED"}"#)
        try #require(closed.status == 200, "\(closed)")

        // Two writers send batches one after another until the engine dies.
        let sent = Locked([Int: Bool]())
        let writers = (0..<2).map { writer in
            Task {
                for round in 0... {
                    let batch = round * 2 + writer
                    sent.withLock { $0[batch] = false }
                    let ids = (0..<Self.batchSize).map { "b\(batch)-\($0)" }
                    guard
                        let response = try? await client.send(
                            .POST, "\(p)/tasks:batchCreate", token: server, body: Self.batchJSON(ids)),
                        response.status == 200
                    else { return }
                    sent.withLock { $0[batch] = true }
                }
            }
        }
        try await waitUntil(timeout: .seconds(120)) { sent.withLock { $0.values.filter { $0 }.count >= 6 } }
        engine.kill()
        _ = try await engine.exit(within: .seconds(10))
        for writer in writers { await writer.value }

        let (restarted, again, _) = try await ChildEngine.start(folder: folder)
        var stored: Set<String> = []
        var token = ""
        repeat {
            let page = try await again.send(.GET, "\(p)/tasks?pageSize=500&pageToken=\(token)", token: server)
            try #require(page.status == 200, "\(page)")
            for name in (page.value("tasks") as? [[String: Any]] ?? []).compactMap({ $0["name"] as? String }) {
                stored.insert(String(name.split(separator: "/").last!))
            }
            token = page.value("nextPageToken") as? String ?? ""
        } while !token.isEmpty
        for (batch, acknowledged) in sent.withLock({ $0 }) {
            let present = (0..<Self.batchSize).filter { stored.contains("b\(batch)-\($0)") }.count
            #expect(
                present == 0 || present == Self.batchSize,
                "batch \(batch) is there in part: \(present) of \(Self.batchSize)")
            if acknowledged { #expect(present == Self.batchSize, "acknowledged batch \(batch) is missing") }
        }
        for stop in stops {
            let task = try await again.send(.GET, "\(p)/tasks/\(stop)", token: server)
            #expect(task.value("deliveryVehicleId") as? String == "dv", "\(task)")
        }
        let vehicle = try await again.send(.GET, "\(p)/deliveryVehicles/dv", token: server)
        #expect((vehicle.value("remainingVehicleJourneySegments") as? [Any])?.count == stops.count, "\(vehicle)")
        let lone = try await again.send(.GET, "\(p)/tasks/lone", token: server)
        #expect(
            lone.value("state") as? String == "CLOSED" && lone.value("taskOutcome") as? String == "SUCCEEDED", "\(lone)"
        )
        restarted.kill()
        _ = try await restarted.exit(within: .seconds(10))
    }
}
