import FleetAuthLocking
import Logging
import NIOCore
import NIOSSL

/// A server's certificate chain and private key, from PEM files (`--tls-cert`, `--tls-key`),
/// read again on ``reload(logger:)`` (SIGHUP): new connections get the new certificate, open
/// ones keep theirs, and nothing restarts. TLS 1.2 at least; ALPN offers `http/1.1` on an HTTP
/// port and `h2` on a gRPC port.
package final class TLSCertificates: Sendable {
    /// What a port speaks inside TLS, as ALPN names it.
    package enum ApplicationProtocol: Sendable {
        /// HTTP/1.1: the token server's port and the engine's REST port.
        case http1
        /// HTTP/2: the engine's gRPC port.
        case http2

        fileprivate var alpn: [String] {
            switch self {
            case .http1: ["http/1.1"]
            case .http2: ["h2"]
            }
        }
    }

    /// The PEM file of the certificate chain, leaf first.
    package let certificatePath: String
    /// The PEM file of the private key.
    package let keyPath: String
    private let contexts: Locked<[ApplicationProtocol: NIOSSLContext]>

    /// The files' certificate and key.
    ///
    /// - Throws: ``TLSFilesError`` naming the file that cannot be read or used.
    package init(certificatePath: String, keyPath: String) throws {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        self.contexts = Locked(try Self.load(certificatePath: certificatePath, keyPath: keyPath))
    }

    /// The handler that speaks TLS for a new connection, with the certificate loaded last.
    package func serverHandler(for protocol: ApplicationProtocol) -> any ChannelHandler {
        NIOSSLServerHandler(context: contexts.withLock { $0[`protocol`]! })
    }

    /// Reads the files again; on a failure logs why and keeps serving the certificate it had.
    package func reload(logger: Logger) {
        do {
            let loaded = try Self.load(certificatePath: certificatePath, keyPath: keyPath)
            contexts.withLock { $0 = loaded }
            logger.notice("TLS certificate reloaded", metadata: ["certificate": "\(certificatePath)"])
        } catch {
            logger.error("TLS certificate not reloaded; the one loaded before stays", metadata: ["problem": "\(error)"])
        }
    }

    private static func load(certificatePath: String, keyPath: String) throws -> [ApplicationProtocol: NIOSSLContext] {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificatePath)
        } catch {
            throw TLSFilesError(file: certificatePath, problem: "is not a readable PEM certificate chain")
        }
        guard !chain.isEmpty else { throw TLSFilesError(file: certificatePath, problem: "holds no certificate") }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: keyPath, format: .pem)
        } catch {
            throw TLSFilesError(file: keyPath, problem: "is not a readable PEM private key")
        }
        var contexts: [ApplicationProtocol: NIOSSLContext] = [:]
        for port in [ApplicationProtocol.http1, .http2] {
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
            configuration.minimumTLSVersion = .tlsv12
            configuration.applicationProtocols = port.alpn
            do {
                contexts[port] = try NIOSSLContext(configuration: configuration)
            } catch {
                throw TLSFilesError(
                    file: keyPath, problem: "does not go with the certificate in \(certificatePath) (\(error))")
            }
        }
        return contexts
    }
}

/// A certificate or key file that cannot be used, and why (never the file's contents).
package struct TLSFilesError: Error, CustomStringConvertible {
    /// The file.
    package let file: String
    /// What is wrong with it.
    package let problem: String

    package var description: String { "\(file) \(problem)" }
}
