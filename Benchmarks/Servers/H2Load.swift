import CommandSupport
import Foundation

/// `h2load` (Debian's `nghttp2-client`), the C HTTP/2 load generator: one gRPC method called
/// with the same message over and over, so that two gRPC servers can be compared under a
/// client that is neither of them.
enum H2Load {
    /// What a run reported.
    struct Result: Sendable {
        /// Calls answered with HTTP 2xx (a gRPC error also travels as 200; the floors send none).
        let succeeded: Int
        let failed: Int
        let seconds: Double
    }

    /// Calls `method` (`/package.Service/Method`) on `127.0.0.1:port` for `seconds` after a 1 s
    /// warm-up, over `connections` connections with `streams` calls in flight on each; the
    /// request is the gRPC frame in `bodyFile`.
    static func run(port: Int, method: String, bodyFile: String, connections: Int, streams: Int, seconds: Int)
        async throws -> Result
    {
        let output = try await ChildProcess.run(
            [
                "h2load", "--duration=\(seconds)", "--warm-up-time=1", "--clients=\(connections)",
                "--max-concurrent-streams=\(streams)",
                "--threads=1", "--data=\(bodyFile)", "--header=content-type: application/grpc", "--header=te: trailers",
                "http://127.0.0.1:\(port)\(method)",
            ], standardError: .discarded, timeout: .seconds(seconds + 60)
        ).checked().output
        guard let finished = output.split(separator: "\n").first(where: { $0.hasPrefix("finished in ") }),
            let requests = output.split(separator: "\n").first(where: { $0.hasPrefix("requests: ") }),
            let seconds = Double(finished.dropFirst("finished in ".count).prefix { $0 != "s" })
        else { throw CommandFailure("h2load printed no summary") }
        func count(_ label: String) -> Int {
            let words = requests.split(separator: " ")
            guard let index = words.firstIndex(where: { $0.hasPrefix(label) }), index > 0 else { return 0 }
            return Int(words[index - 1]) ?? 0
        }
        return Result(
            succeeded: count("succeeded"), failed: count("failed") + count("errored") + count("timeout"),
            seconds: seconds)
    }

    /// `message` as a gRPC frame (uncompressed, with its 5-byte prefix), for ``run(port:method:bodyFile:connections:streams:seconds:)``.
    static func frame(_ message: [UInt8]) -> Data {
        let length = UInt32(message.count)
        return Data(
            [0, UInt8(length >> 24), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)]
                + message)
    }
}
