import CommandSupport
import FleetEngineProtos
import Foundation
import NIOHPACK
import TestSupport
import Testing

/// The gRPC door's transport to an HTTP/2 client that is no gRPC client: the HTTP statuses
/// gRPC's HTTP/2 protocol gives such requests, from nghttp (Debian's `nghttp2-client`, which
/// `.ci/run` installs).
@Suite("gRPC door: requests that are not gRPC")
struct GRPCTransportTests {
    static var nghttpAvailable: Bool {
        ProcessInfo.processInfo.environment["CI"] != nil
            || FileManager.default.isExecutableFile(atPath: "/usr/bin/nghttp")
    }

    /// The `:status` the door answers `arguments` (nghttp's options) with on `path`.
    func status(_ arguments: [String], path: String = "/maps.fleetengine.v1.VehicleService/GetVehicle") async throws
        -> String?
    {
        let port = try #require(try await TestEngine.shared.grpcPort)
        let exit = try await ChildProcess.run(
            ["nghttp", "-v"] + arguments + ["http://127.0.0.1:\(port)\(path)"], timeout: .seconds(30))
        return exit.output.split(separator: "\n").lazy.compactMap { line in
            line.range(of: ":status: ").map { String(line[$0.upperBound...]).trimmingCharacters(in: .whitespaces) }
        }.first
    }

    @Test("a GET is 405", .enabled(if: nghttpAvailable, "needs nghttp, Debian's nghttp2-client"))
    func get() async throws {
        #expect(try await status([]) == "405")
    }

    @Test(
        "a POST that is not application/grpc is 415",
        .enabled(if: nghttpAvailable, "needs nghttp, Debian's nghttp2-client"))
    func notGRPC() async throws {
        let body = FileManager.default.temporaryDirectory.appendingPathComponent("not-grpc-\(UUID().uuidString).json")
            .path
        try Data(#"{"name":"x"}"#.utf8).write(to: URL(fileURLWithPath: body))
        defer { try? FileManager.default.removeItem(atPath: body) }
        #expect(try await status(["-d", body, "-H", "content-type: application/json"]) == "415")
    }

    @Test("a connection that does not speak HTTP/2 is closed, and the door goes on")
    func notHTTP2() async throws {
        let port = try #require(try await TestEngine.shared.grpcPort)
        #expect(
            try await RawHTTP.serverCloses(
                port: port, after: Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8), within: 10))
        #expect(try await RawHTTP.serverCloses(port: port, after: Array(repeating: 0xFF, count: 64), within: 10))
        let health = try await GRPCTestClient.with(try await TestEngine.shared) { grpc in
            try await grpc.health.check(.with { $0.service = "" })
        }
        #expect(health.status == .serving)
    }

    @Test(
        "a gRPC call on a path that names no method is answered with a gRPC status",
        .enabled(if: nghttpAvailable, "needs nghttp, Debian's nghttp2-client"))
    func noMethod() async throws {
        let body = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString).grpc").path
        try Data([0, 0, 0, 0, 0]).write(to: URL(fileURLWithPath: body))
        defer { try? FileManager.default.removeItem(atPath: body) }
        let port = try #require(try await TestEngine.shared.grpcPort)
        let exit = try await ChildProcess.run(
            [
                "nghttp", "-v", "-d", body, "-H", "content-type: application/grpc", "-H", "te: trailers",
                "http://127.0.0.1:\(port)/nothing",
            ],
            timeout: .seconds(30))
        #expect(exit.output.contains("grpc-status: 12"), "\(exit.output)")
    }

    /// A header block HTTP/2 forbids or gRPC would never send, and what the door must answer.
    /// (swift-nio-http2's own header checks are off on the door, to save their cost per call;
    /// the door reads only the headers it needs, whatever their case.)
    struct OddHeaders: Sendable, CustomTestStringConvertible {
        let name: String
        let headers: HPACKHeaders
        /// The answer's `grpc-status`, or `nil` for its `:status` alone.
        let grpcStatus: String?
        /// The answer's `:status`, or `nil` when HTTP/2 ends the connection instead (a
        /// header block its decoder refuses).
        let httpStatus: String?

        var testDescription: String { name }
    }

    static let health = "/grpc.health.v1.Health/Check"
    static let oddHeaders: [OddHeaders] = [
        OddHeaders(
            name: "no :path", headers: [":method": "POST", ":scheme": "http", "content-type": "application/grpc"],
            grpcStatus: "12", httpStatus: "200"),
        OddHeaders(
            name: "no :method", headers: [":path": health, ":scheme": "http", "content-type": "application/grpc"],
            grpcStatus: nil, httpStatus: "405"),
        OddHeaders(
            name: "upper-case names",
            headers: [":method": "POST", ":path": health, "Content-Type": "application/grpc", "TE": "trailers"],
            grpcStatus: "0", httpStatus: "200"),
        OddHeaders(
            name: "pseudo-headers after the others, one unknown",
            headers: [":method": "POST", "content-type": "application/grpc", ":path": health, ":odd": "y"],
            grpcStatus: "0", httpStatus: "200"),
        OddHeaders(
            name: "an empty name",
            headers: [":method": "POST", ":path": health, "content-type": "application/grpc", "": "x"],
            grpcStatus: nil, httpStatus: nil),
        OddHeaders(
            name: "a token with a NUL, CR and LF in it",
            headers: [
                ":method": "POST", ":path": "/maps.fleetengine.v1.VehicleService/GetVehicle",
                "content-type": "application/grpc",
                "authorization": "Bearer a\u{0}b\r\nc",
            ],
            grpcStatus: "16", httpStatus: "200"),
    ]

    @Test("a header block HTTP/2 forbids gets a clear answer, and the door goes on", arguments: oddHeaders)
    func oddHeaderBlock(_ odd: OddHeaders) async throws {
        let port = try #require(try await TestEngine.shared.grpcPort)
        let answer = try await RawHTTP2.send(port: port, headers: odd.headers, body: [0, 0, 0, 0, 0])
        #expect(answer.first(":status") == odd.httpStatus, "\(answer)")
        #expect(answer.first("grpc-status") == odd.grpcStatus, "\(answer)")
        let health = try await GRPCTestClient.with(try await TestEngine.shared) { grpc in
            try await grpc.health.check(.with { $0.service = "" })
        }
        #expect(health.status == .serving)
    }
}
