import AsyncHTTPClient
import FleetTokenProvider
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An ``HTTPTransport`` over AsyncHTTPClient, for simulating many apps in one process.
///
/// swift-corelibs-foundation's `URLSession` drives each session from libcurl and dispatch
/// sources; a thousand of them in one process spend the CPU on their own bookkeeping (seen at
/// 500 drivers: acknowledgements stopped while libcurl and libdispatch used both cores). One
/// AsyncHTTPClient shares the process's NIO event loops and keeps a pool of keep-alive
/// connections per server. Errors are reported as `URLError`s, as `URLSessionTransport` does.
package final class AsyncHTTPClientTransport: HTTPTransport {
    /// The largest body read from an answer.
    package static let maximumBodySize = 1 << 20

    private let client: HTTPClient

    /// A transport keeping up to `connectionsPerServer` connections to each server.
    package init(connectionsPerServer: Int) {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connectionsPerServer)
        configuration.decompression = .disabled
        client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }

    /// Closes every connection; the transport cannot be used afterwards.
    package func shutdown() async {
        try? await client.shutdown()
    }

    /// Sends `request` with a deadline of `timeout`.
    ///
    /// - Throws: `URLError` (`.timedOut`, `.cannotConnectToHost`, `.networkConnectionLost`,
    ///   `.badURL`, `.dataLengthExceedsMaximum`), or `CancellationError`.
    package func send(_ request: URLRequest, timeout: Duration) async throws -> (Data, HTTPURLResponse) {
        guard let url = request.url else { throw URLError(.badURL) }
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            outgoing.headers.add(name: name, value: value)
        }
        if let body = request.httpBody {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        let deadline = NIODeadline.now() + TimeAmount(timeout)
        do {
            let response = try await client.execute(outgoing, deadline: deadline)
            let body = try await response.body.collect(upTo: Self.maximumBodySize)
            var fields: [String: String] = [:]
            for header in response.headers {
                fields[header.name] = fields[header.name].map { "\($0), \(header.value)" } ?? header.value
            }
            guard
                let answer = HTTPURLResponse(
                    url: url, statusCode: Int(response.status.code), httpVersion: "HTTP/1.1", headerFields: fields)
            else {
                throw URLError(.badServerResponse)
            }
            return (Data(buffer: body), answer)
        } catch let error as URLError {
            throw error
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw URLError(Self.code(for: error))
        }
    }

    /// The `URLError` code closest to an AsyncHTTPClient or NIO error.
    package static func code(for error: any Error) -> URLError.Code {
        switch error {
        case let error as HTTPClientError
        where [.deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .getConnectionFromPoolTimeout].contains(
            error):
            .timedOut
        case let error as HTTPClientError where error == .remoteConnectionClosed:
            .networkConnectionLost
        case is NIOTooManyBytesError:
            .dataLengthExceedsMaximum
        case is NIOConnectionError, is IOError:
            .cannotConnectToHost
        default:
            .networkConnectionLost
        }
    }
}
