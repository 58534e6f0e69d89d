import AsyncHTTPClient
import Foundation
import NIOCore

/// A small document fetched over HTTP(S) with `GET` — a JWKS, an OpenID Connect discovery
/// document — bounded in time and size, with how long its server says it stays fresh.
package struct FetchedDocument: Sendable {
    /// The body.
    package let body: Data
    /// `max-age` of the `Cache-Control` header, or `nil` when the header says nothing of it;
    /// zero for `no-cache` and `no-store`.
    package let maxAge: Duration?

    /// A document (for tests and callers that build one).
    package init(body: Data, maxAge: Duration?) {
        self.body = body
        self.maxAge = maxAge
    }

    /// Fetches `url` with HTTPClient's shared client. Anything but `200 OK`, a body over
    /// `maximumSize` bytes, or no answer within `timeout` (connecting included) throws a
    /// ``FetchError`` that names the URL without any user name or password in it.
    package static func fetch(_ url: String, timeout: Duration, maximumSize: Int = 1 << 20) async throws(FetchError)
        -> FetchedDocument
    {
        let shown = FetchError.redacted(url)
        do {
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: url), timeout: .nanoseconds(Int64(timeout.nanoseconds)))
            guard response.status == .ok else {
                throw FetchError(url: shown, problem: "answered HTTP \(response.status.code)")
            }
            let body = try await response.body.collect(upTo: maximumSize)
            return FetchedDocument(
                body: Data(body.readableBytesView),
                maxAge: response.headers.first(name: "cache-control").flatMap(Self.maxAge(cacheControl:)))
        } catch let error as FetchError {
            throw error
        } catch is NIOTooManyBytesError {
            throw FetchError(url: shown, problem: "sent more than \(maximumSize) bytes")
        } catch let error as HTTPClientError
            where error == .deadlineExceeded || error == .connectTimeout || error == .readTimeout
        {
            throw FetchError(url: shown, problem: "did not answer within \(timeout)")
        } catch {
            throw FetchError(url: shown, problem: "could not be fetched (\(error))")
        }
    }

    /// The freshness lifetime a `Cache-Control` header gives: its `max-age`, or zero for
    /// `no-cache` / `no-store`; `nil` when it says neither.
    package static func maxAge(cacheControl header: String) -> Duration? {
        var maxAge: Duration?
        for directive in header.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            switch parts.first {
            case "no-cache", "no-store":
                return .zero
            case "max-age":
                guard parts.count == 2,
                    let seconds = Int64(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))), seconds >= 0
                else { continue }
                maxAge = .seconds(seconds)
            default:
                continue
            }
        }
        return maxAge
    }
}

/// Why a document could not be fetched; the message names the URL (without credentials).
package struct FetchError: Error, Sendable, CustomStringConvertible {
    /// The URL, without any user name or password.
    package let url: String
    /// What went wrong, in words.
    package let problem: String

    /// An error about `url` (already redacted).
    package init(url: String, problem: String) {
        self.url = url
        self.problem = problem
    }

    /// `URL problem`, e.g. `https://idp.example/jwks answered HTTP 500`.
    package var description: String { "\(url) \(problem)" }

    /// `url` without any user name or password in it.
    package static func redacted(_ url: String) -> String {
        var components = URLComponents(string: url)
        components?.user = nil
        components?.password = nil
        return components?.string ?? "(unparsable URL)"
    }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : scaled + attoseconds / 1_000_000_000
    }
}
