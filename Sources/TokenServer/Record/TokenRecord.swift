import FleetAuthLocking
import Foundation

/// One token request as the record keeps it: a token handed out, or a refusal with its
/// reason. It never holds the token, nor a session's secret: a session is named by an id
/// derived from the hash the store keeps.
package struct TokenRecord: Sendable, Equatable {
    /// Whether a token was handed out.
    package enum Outcome: String, Sendable, CaseIterable {
        /// A token was handed out.
        case issued
        /// The request was refused (``TokenRecord/reason`` says why).
        case refused
    }

    /// Unique, and ordered as the records were made: their order when listed newest first.
    package let id: String
    /// When the request was answered, in epoch seconds.
    package let recordedAt: Int64
    /// Whether a token was handed out.
    package let outcome: Outcome
    /// Why it was refused (a ``RefusalReason``); `nil` for an issued token.
    package let reason: String?
    /// The account it was for; `-` when the caller was not known.
    package let account: String
    /// The account's role, when known.
    package let role: String?
    /// The token's kind (`driver`, `delivery-trusted-driver`, …): issued, or asked for.
    package let kind: String
    /// The vehicle, trip, delivery vehicle or tracking id the token is scoped to; `nil` for a
    /// fleet reader's.
    package let resource: Resource?
    /// The `kid` of the key that signed it.
    package let keyID: String?
    /// The token's `iat` and `exp`, in epoch seconds.
    package let issuedAt: Int64?
    /// The token's `exp`, in epoch seconds: it can be used until then.
    package let expiresAt: Int64?
    /// The session's id (``sessionID(ofHash:)``); `nil` for an ID token or no credential.
    package let sessionID: String?
    /// The client's IP address.
    package let clientAddress: String?

    /// A record of these fields.
    package init(
        id: String, recordedAt: Int64, outcome: Outcome, reason: String?, account: String, role: String?, kind: String,
        resource: Resource?,
        keyID: String?, issuedAt: Int64?, expiresAt: Int64?, sessionID: String?, clientAddress: String?
    ) {
        self.id = id
        self.recordedAt = recordedAt
        self.outcome = outcome
        self.reason = reason
        self.account = account
        self.role = role
        self.kind = kind
        self.resource = resource
        self.keyID = keyID
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.sessionID = sessionID
        self.clientAddress = clientAddress
    }

    /// A session's id in the record: the first 16 hex digits of the SHA-256 the store keeps of
    /// its token. It names the session among the account's, and cannot be used as one.
    package static func sessionID(ofHash tokenHash: String) -> String {
        "s-" + tokenHash.prefix(16)
    }
}

/// Makes record ids: the time in milliseconds, a counter, and random digits, so that ids sort
/// as their records were made on one replica, and two replicas never make the same one.
package struct TokenRecordIDs: Sendable {
    private let counter = Locked(UInt32(0))

    /// A maker of ids, its counter at zero.
    package init() {}

    /// The next id, for a record made at `date`.
    package func next(at date: Date) -> String {
        let milliseconds = UInt64(max(0, date.timeIntervalSince1970 * 1000))
        let count = counter.withLock { counter -> UInt32 in
            counter &+= 1
            return counter
        }
        return Self.padded(String(milliseconds), to: 14) + Self.padded(String(count, radix: 16), to: 8)
            + Self.padded(String(UInt32.random(in: 0...UInt32.max), radix: 16), to: 8)
    }

    /// The smallest id a record made at or after `time` (epoch seconds) can have: ids begin
    /// with their time in milliseconds, so that a question bounded in time reads only its range.
    /// A time past the 14 digits' reach (the year 5138) is taken as their last second.
    static func lowerBound(since time: Int64) -> String {
        padded(String(min(max(0, time), 99_999_999_999) * 1000), to: 14)
    }

    /// `digits` with zeros before them, `width` long.
    private static func padded(_ digits: String, to width: Int) -> String {
        String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
