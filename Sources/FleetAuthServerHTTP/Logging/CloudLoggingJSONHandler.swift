import Foundation
import Logging

/// A log handler that writes each line as one JSON object, in the shape Cloud Logging reads
/// from a container's output: `severity`, `message`, `time`, the request's trace as
/// `logging.googleapis.com/trace` (`projects/PROJECT/traces/TRACE_ID`) and
/// `logging.googleapis.com/spanId`, an access line's `httpRequest`, and the rest of the
/// metadata as fields of its own.
package struct CloudLoggingJSONHandler: LogHandler {
    /// The metadata key whose value becomes the line's `httpRequest` (see ``AccessLog``).
    package static let httpRequestKey = "httpRequest"

    private let label: String
    private let project: String
    private let write: @Sendable (String) -> Void

    /// The level below which nothing is logged.
    package var logLevel: Logger.Level = .info
    /// The metadata of every line.
    package var metadata: Logger.Metadata = [:]
    /// Metadata added to every line when it is logged (the request's trace).
    package var metadataProvider: Logger.MetadataProvider?

    /// A handler for `label`'s lines, naming traces in `project`, writing each line with `write`.
    package init(label: String, project: String, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.project = project
        self.write = write
    }

    /// A handler writing to standard error, one line at a time.
    package static func standardError(label: String, project: String) -> CloudLoggingJSONHandler {
        CloudLoggingJSONHandler(label: label, project: project) { line in
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    /// One item of ``metadata``.
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes `event` as one line of JSON.
    package func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { _, provided in provided } }
        if let own = event.metadata { fields.merge(own) { _, own in own } }
        var line: [String: Any] = [
            "severity": Self.severity(event.level),
            "message": "\(event.message)",
            "time": Self.timestamp(Date()),
            "logger": label,
        ]
        if case .string(let trace)? = fields.removeValue(forKey: RequestTrace.Key.trace) {
            line["logging.googleapis.com/trace"] = "projects/\(project)/traces/\(trace)"
        }
        if case .string(let span)? = fields.removeValue(forKey: RequestTrace.Key.spanID) {
            line["logging.googleapis.com/spanId"] = span
        }
        if case .string(let sampled)? = fields.removeValue(forKey: RequestTrace.Key.sampled) {
            line["logging.googleapis.com/trace_sampled"] = sampled == "true"
        }
        for (key, value) in fields {
            line[key] = Self.json(value)
        }
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: line, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        write(String(decoding: data, as: UTF8.self) + "\n")
    }

    /// Cloud Logging's name for a level (it has no trace level: trace lines are `DEBUG`).
    static func severity(_ level: Logger.Level) -> String {
        switch level {
        case .trace, .debug: "DEBUG"
        case .info: "INFO"
        case .notice: "NOTICE"
        case .warning: "WARNING"
        case .error: "ERROR"
        case .critical: "CRITICAL"
        }
    }

    /// RFC 3339 in UTC with milliseconds, ending in `Z`.
    private static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    private static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let value): "\(value)"
        case .array(let values): values.map(json)
        case .dictionary(let values): values.mapValues(json)
        }
    }
}
