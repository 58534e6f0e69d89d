import Foundation
import Hummingbird

/// JSON responses that are never cached (they carry tokens, sessions or account data).
enum JSONResponse {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `value` as JSON with `status` and `Cache-Control: no-store`.
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        make(json: try encoder.encode(value), status: status)
    }

    /// The headers of every JSON answer: its type, and `Cache-Control: no-store`.
    static let headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]

    /// `json`, already encoded, with `status` and `Cache-Control: no-store`.
    static func make(json: some Sequence<UInt8>, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: json))
        )
    }

    /// An empty 204 response.
    static var noContent: Response {
        Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }
}

extension Parameters {
    /// The path parameter `name`, percent-decoded once.
    func decoded(_ name: String) throws -> String {
        let raw = try require(name)
        guard raw.utf8.contains(UInt8(ascii: "%")) else { return raw }
        return raw.removingPercentEncoding ?? raw
    }
}
