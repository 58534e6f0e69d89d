import FleetAuthLocking
import FleetAuthServerHTTP
import Foundation
import Logging
import Testing

/// JSON log lines as Cloud Logging reads them, and the request's trace on every line logged
/// while it is served, not only the access log's.
@Suite("Cloud Logging lines and request traces")
struct CloudLoggingTests {
    @Test("a line logged while a request is served carries its trace; severity, message and time are there")
    func lineCarriesTheCurrentTrace() throws {
        let lines = Locked<[String]>([])
        var handler = CloudLoggingJSONHandler(label: "test", project: "my-fleet") { line in
            lines.withLock { $0.append(line) }
        }
        handler.metadataProvider = RequestTrace.metadataProvider
        let logger = Logger(label: "test") { _ in handler }
        let trace = try #require(
            RequestTrace(traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", cloudTraceContext: nil)
        )
        RequestTrace.$current.withValue(trace) { logger.warning("token not signed") }
        logger.info("between requests")
        let objects = try lines.withLock { $0 }.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.count == 2)
        #expect(
            objects[0]["severity"] as? String == "WARNING" && objects[0]["message"] as? String == "token not signed")
        #expect(
            objects[0]["logging.googleapis.com/trace"] as? String
                == "projects/my-fleet/traces/4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(objects[0]["logging.googleapis.com/spanId"] as? String == "00f067aa0ba902b7")
        #expect(objects[0]["logging.googleapis.com/trace_sampled"] as? Bool == true)
        #expect(objects[1]["logging.googleapis.com/trace"] == nil, "no trace outside a request")
        #expect(objects.allSatisfy { ($0["time"] as? String)?.hasSuffix("Z") == true })
    }

    @Test("trace headers are read as their specs write them, and anything else is no trace")
    func traceHeaders() {
        let cloud = RequestTrace(traceparent: nil, cloudTraceContext: "105445AA7843BC8BF206B12000100000/1;o=1")
        #expect(
            cloud?.traceID == "105445aa7843bc8bf206b12000100000" && cloud?.spanID == "0000000000000001"
                && cloud?.sampled == true)
        let fullwidth = String(repeating: "\u{FF11}", count: 32)
        for traceparent in [
            "00-\(fullwidth)-00f067aa0ba902b7-01", "00-00000000000000000000000000000000-00f067aa0ba902b7-01", "garbage",
            "",
        ] {
            #expect(RequestTrace(traceparent: traceparent, cloudTraceContext: nil) == nil, "\(traceparent)")
        }
    }
}
