import ArgumentParser
import FleetAuthServerHTTP
import Logging

/// What every server command takes about running in production: logs (`--log-level`,
/// `--log-format`, `--access-log`), slow and idle clients (`--header-timeout`,
/// `--idle-timeout`), shutdown (`--shutdown-delay`, `--shutdown-timeout`) and TLS
/// (`--tls-cert`, `--tls-key`).
struct ServerRuntimeOptions: ParsableArguments {
    /// How log lines are written.
    enum LogFormat: String, ExpressibleByArgument, CaseIterable {
        /// One line of text each, for a person at a terminal.
        case text
        /// One JSON object each, as Cloud Logging reads them (severity, trace, httpRequest).
        case json
    }

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"

    @Option(help: "Log lines as text or as JSON for Cloud Logging (severity, message, time, trace, httpRequest).")
    var logFormat = LogFormat.text

    @Flag(help: "Log one line per answered request: method, path, status, latency, client address, user agent.")
    var accessLog = false

    @Option(help: "Seconds a client may take to send a request's head once it has begun; then its connection closes.")
    var headerTimeout = 30.0

    @Option(help: "Seconds a connection may wait between requests before it closes (keep it above a balancer's own).")
    var idleTimeout = 620.0

    @Option(help: "Seconds to go on serving after SIGTERM, /readyz answering 503, so that balancers stop sending.")
    var shutdownDelay = 1.0

    @Option(
        help:
            "Seconds after SIGTERM by which the process has exited, requests in flight answered (Cloud Run allows 10).")
    var shutdownTimeout = 8.0

    @Option(
        help: ArgumentHelp(
            "Serve TLS with this PEM certificate chain (leaf first); needs --tls-key. Read again on SIGHUP.",
            valueName: "file"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("The PEM private key of --tls-cert.", valueName: "file"))
    var tlsKey: String?

    func validate() throws {
        guard (tlsCert == nil) == (tlsKey == nil) else {
            throw ValidationError("give --tls-cert and --tls-key together")
        }
        _ = try tlsCertificates()
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level \(logLevel)") }
        guard headerTimeout > 0 else { throw ValidationError("--header-timeout must be more than 0 seconds") }
        guard idleTimeout > 0 else { throw ValidationError("--idle-timeout must be more than 0 seconds") }
        guard shutdownDelay >= 0 else { throw ValidationError("--shutdown-delay must be 0 seconds or more") }
        guard shutdownTimeout > shutdownDelay else {
            throw ValidationError("--shutdown-timeout must be longer than --shutdown-delay")
        }
    }

    /// The certificate to serve TLS with, or `nil` for plain HTTP; an unusable file is a usage
    /// error naming it.
    func tlsCertificates() throws -> TLSCertificates? {
        guard let tlsCert, let tlsKey else { return nil }
        do {
            return try TLSCertificates(certificatePath: tlsCert, keyPath: tlsKey)
        } catch {
            throw ValidationError("--tls-cert/--tls-key: \(error)")
        }
    }

    /// `https` with a certificate, else `http`: for the addresses a server announces.
    var scheme: String { tlsCert == nil ? "http" : "https" }

    /// The settings for the servers' connections and shutdown.
    func lifecycle() -> ServerLifecycle {
        ServerLifecycle(
            headerTimeout: .seconds(headerTimeout), idleTimeout: .seconds(idleTimeout),
            shutdownDelay: .seconds(shutdownDelay),
            shutdownTimeout: .seconds(shutdownTimeout))
    }

    /// Sets up logging for the whole process in the chosen format and level, every line carrying
    /// the trace of the request being served, and returns the server's logger. Call it once.
    func bootstrapLogging(label: String, project: String) -> Logger {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        let format = logFormat
        LoggingSystem.bootstrap(
            { label, provider in
                switch format {
                case .json:
                    var handler = CloudLoggingJSONHandler.standardError(label: label, project: project)
                    handler.metadataProvider = provider
                    handler.logLevel = level
                    return handler
                case .text:
                    var handler = DeferredMetadataLogHandler(
                        StreamLogHandler.standardError(label: label, metadataProvider: provider))
                    handler.logLevel = level
                    return handler
                }
            }, metadataProvider: RequestTrace.metadataProvider)
        return Logger(label: label)
    }
}
