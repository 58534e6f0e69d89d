import Logging

/// A log handler that keeps its metadata as it is set and hands it to `destination` only with a
/// message that is logged.
///
/// swift-log's `StreamLogHandler` formats its metadata into text whenever it changes, and
/// Hummingbird sets a request id on every request's logger, so a server would format metadata
/// for every request although it logs for few of them. The output is the same.
package struct DeferredMetadataLogHandler: LogHandler {
    private var destination: any LogHandler

    /// The metadata, merged under each logged message's own.
    package var metadata: Logger.Metadata = [:]

    /// The metadata provider (taken over from the destination), merged over ``metadata``.
    package var metadataProvider: Logger.MetadataProvider?

    /// A handler that logs through `destination` (whose own metadata stays as it is).
    package init(_ destination: any LogHandler) {
        self.destination = destination
        self.metadataProvider = destination.metadataProvider
        self.destination.metadataProvider = nil
    }

    /// A handler that writes to standard error, as swift-log's default handler does.
    package static func standardError(label: String) -> DeferredMetadataLogHandler {
        DeferredMetadataLogHandler(StreamLogHandler.standardError(label: label))
    }

    /// The destination's level.
    package var logLevel: Logger.Level {
        get { destination.logLevel }
        set { destination.logLevel = newValue }
    }

    /// One item of ``metadata``.
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Logs `event` through the destination with ``metadata``, then the provider's, then the
    /// event's own (a later one wins a key), as `StreamLogHandler` merges them.
    package func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get(), !provided.isEmpty {
            merged.merge(provided) { _, provided in provided }
        }
        var event = event
        if !merged.isEmpty {
            event.metadata = merged.merging(event.metadata ?? [:]) { _, explicit in explicit }
        }
        destination.log(event: event)
    }
}
