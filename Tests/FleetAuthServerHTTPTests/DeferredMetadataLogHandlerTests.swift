import FleetAuthLocking
import FleetAuthServerHTTP
import Logging
import Testing

@Suite("Log metadata formatted only for messages that are logged")
struct DeferredMetadataLogHandlerTests {
    /// A destination that keeps what it is given.
    struct Capture: LogHandler {
        let events = Locked<[LogEvent]>([])
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info
        var metadataProvider: Logger.MetadataProvider?

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            events.withLock { $0.append(event) }
        }
    }

    /// A stream that keeps what is written to it.
    final class Lines: TextOutputStream, Sendable {
        private let text = Locked("")
        func write(_ string: String) { text.withLock { $0 += string } }
        var written: String { text.withLock { $0 } }
    }

    @Test func metadataGoesWithEachLoggedMessageUnderTheMessagesOwn() {
        let capture = Capture()
        var logger = Logger(label: "test") { _ in DeferredMetadataLogHandler(capture) }
        logger[metadataKey: "hb.request.id"] = "7"
        logger[metadataKey: "route"] = "vehicles"
        logger.info("saved", metadata: ["hb.request.id": "8", "count": "3"])
        let events = capture.events.withLock { $0 }
        #expect(events.count == 1)
        #expect(events.first?.metadata == ["hb.request.id": "8", "route": "vehicles", "count": "3"])
        #expect(logger[metadataKey: "hb.request.id"] == "7")
    }

    @Test func providedMetadataGoesOverTheLoggersAndUnderTheMessagesOwn() {
        var capture = Capture()
        capture.metadataProvider = Logger.MetadataProvider { ["trace": "provided", "route": "provided"] }
        var logger = Logger(label: "test") { _ in DeferredMetadataLogHandler(capture) }
        logger[metadataKey: "route"] = "vehicles"
        logger[metadataKey: "hb.request.id"] = "7"
        logger.info("saved", metadata: ["trace": "explicit"])
        let events = capture.events.withLock { $0 }
        #expect(events.first?.metadata == ["trace": "explicit", "route": "provided", "hb.request.id": "7"])
    }

    @Test func theLevelIsTheDestinationsAndMessagesBelowItAreDropped() {
        let capture = Capture()
        var logger = Logger(label: "test") { _ in DeferredMetadataLogHandler(capture) }
        logger.logLevel = .warning
        logger.info("dropped")
        logger.error("kept")
        #expect(logger.logLevel == .warning)
        #expect(capture.events.withLock { $0.map { "\($0.message)" } } == ["kept"])
    }

    @Test func aStreamGetsTheSameLineAsThroughStreamLogHandlerAlone() {
        func line(deferred: Bool) -> String {
            let lines = Lines()
            let stream = StreamLogHandler(label: "fleet", stream: lines, metadataProvider: nil)
            var logger =
                deferred
                ? Logger(label: "fleet") { _ in DeferredMetadataLogHandler(stream) }
                : Logger(label: "fleet") { _ in stream }
            logger[metadataKey: "b"] = "2"
            logger[metadataKey: "a"] = "1"
            logger.warning("vehicle moved", metadata: ["c": "3"])
            logger.warning("no metadata of its own")
            // Drop the timestamp, which may differ.
            return lines.written.split(separator: "\n").map {
                $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? ""
            }.joined(separator: "\n")
        }
        #expect(line(deferred: true) == line(deferred: false))
        #expect(line(deferred: true).contains("a=1 b=2 c=3"))
    }
}
