import Foundation
import Logging

/// The trace a request belongs to, from its W3C `traceparent` or Google's
/// `X-Cloud-Trace-Context` header, so that every line logged while it is served carries it
/// (``metadataProvider``) and Cloud Logging groups them under the request.
package struct RequestTrace: Sendable, Equatable {
    /// 32 lowercase hex digits.
    package let traceID: String
    /// 16 lowercase hex digits.
    package let spanID: String
    /// Whether the caller sampled the trace.
    package let sampled: Bool

    /// The trace of the request being served on this task, if it named one.
    @TaskLocal package static var current: RequestTrace?

    /// The trace a request's headers name: `traceparent` first, then `X-Cloud-Trace-Context`;
    /// `nil` when neither is well formed.
    package init?(traceparent: String?, cloudTraceContext: String?) {
        if let traceparent, let trace = Self.parse(traceparent: traceparent) {
            self = trace
        } else if let cloudTraceContext, let trace = Self.parse(cloudTraceContext: cloudTraceContext) {
            self = trace
        } else {
            return nil
        }
    }

    private init(traceID: String, spanID: String, sampled: Bool) {
        self.traceID = traceID
        self.spanID = spanID
        self.sampled = sampled
    }

    /// The metadata keys a log handler finds the trace under.
    package enum Key {
        /// The trace id.
        package static let trace = "trace"
        /// The span id.
        package static let spanID = "spanId"
        /// `true` or `false`.
        package static let sampled = "traceSampled"
    }

    /// The trace as a log line's metadata, under ``Key``'s names.
    package var metadata: Logger.Metadata {
        [Key.trace: "\(traceID)", Key.spanID: "\(spanID)", Key.sampled: "\(sampled)"]
    }

    /// Puts the current request's trace into every log line's metadata.
    package static let metadataProvider = Logger.MetadataProvider { current?.metadata ?? [:] }

    /// `00-<32 hex>-<16 hex>-<2 hex>`, neither id all zeros.
    private static func parse(traceparent: String) -> RequestTrace? {
        let parts = traceparent.trimmingCharacters(in: .whitespaces).split(
            separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[0].count == 2, parts[0] != "ff",
            let traceID = hex(parts[1], digits: 32), let spanID = hex(parts[2], digits: 16),
            let flags = hex(parts[3], digits: 2),
            let flagBits = UInt8(flags, radix: 16)
        else { return nil }
        return RequestTrace(traceID: traceID, spanID: spanID, sampled: flagBits & 1 == 1)
    }

    /// `<32 hex>/<decimal span id>;o=<0 or 1>`; the span id is written as 16 hex digits.
    private static func parse(cloudTraceContext: String) -> RequestTrace? {
        let (ids, options) = cloudTraceContext.trimmingCharacters(in: .whitespaces).splitOnce(";")
        let (trace, span) = ids.splitOnce("/")
        guard let traceID = hex(Substring(trace), digits: 32) else { return nil }
        let spanNumber = span.flatMap { UInt64($0) } ?? 0
        guard spanNumber != 0 else { return nil }
        let spanHex = String(spanNumber, radix: 16)
        let spanID = String(repeating: "0", count: 16 - spanHex.count) + spanHex
        return RequestTrace(traceID: traceID, spanID: spanID, sampled: options == "o=1")
    }

    /// The text in lowercase when it is exactly `digits` ASCII hex digits and not all zeros
    /// (`Character.isHexDigit` would take fullwidth digits too).
    private static func hex(_ text: Substring, digits: Int) -> String? {
        let isASCIIHex = text.utf8.allSatisfy {
            (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0)
        }
        guard text.utf8.count == digits, isASCIIHex else { return nil }
        let lowered = text.lowercased()
        return digits > 2 && lowered.allSatisfy({ $0 == "0" }) ? nil : lowered
    }
}

extension String {
    /// The text before the first `separator` and the rest after it (`nil` without one).
    fileprivate func splitOnce(_ separator: Character) -> (String, String?) {
        guard let index = firstIndex(of: separator) else { return (self, nil) }
        return (String(self[..<index]), String(self[self.index(after: index)...]))
    }
}
