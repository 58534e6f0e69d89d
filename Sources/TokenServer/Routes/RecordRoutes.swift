import FleetAuthServerHTTP
import Foundation
import Hummingbird

/// One record as `GET /v1/admin/issued-tokens` and `fleetauth audit --json` show it.
package struct IssuedTokenEntry: Encodable {
    let id: String
    let recordedAt: Int64
    let outcome: String
    let reason: String?
    let account: String
    let role: String?
    let kind: String
    let vehicleId: String?
    let tripId: String?
    let deliveryVehicleId: String?
    let trackingId: String?
    let kid: String?
    let issuedAt: Int64?
    let expiresAt: Int64?
    let sessionId: String?
    let clientAddress: String?

    /// The entry of `record`.
    package init(_ record: TokenRecord) {
        func id(of kind: ResourceKind) -> String? { record.resource?.kind == kind ? record.resource?.id : nil }
        self.id = record.id
        self.recordedAt = record.recordedAt
        self.outcome = record.outcome.rawValue
        self.reason = record.reason
        self.account = record.account
        self.role = record.role
        self.kind = record.kind
        self.vehicleId = id(of: .vehicle)
        self.tripId = id(of: .trip)
        self.deliveryVehicleId = id(of: .deliveryVehicle)
        self.trackingId = id(of: .trackingID)
        self.kid = record.keyID
        self.issuedAt = record.issuedAt
        self.expiresAt = record.expiresAt
        self.sessionId = record.sessionID
        self.clientAddress = record.clientAddress
    }
}

/// A page of the record, newest first.
struct IssuedTokensPage: Encodable {
    let issuedTokens: [IssuedTokenEntry]
    /// Gives the next page as `pageToken`; absent on the last.
    let nextPageToken: String?
}

extension TokenRecordQuery {
    /// The query of `GET /v1/admin/issued-tokens?…` at `now` (epoch seconds): `vehicle`,
    /// `trip`, `deliveryVehicle` or `trackingId` (one of them), `account`, `valid=true`,
    /// `outcome`, `since` (RFC 3339 or epoch seconds), `pageSize`, `pageToken`
    /// (``ListParameters``). Any other parameter, or a value that is not one of these, is refused
    /// (400) by name. One record more than the page is asked for, to know whether another page
    /// follows.
    init(parameters: [(key: Substring, value: Substring)], now: Int64) throws {
        let resources: [Substring: ResourceKind] = [
            "vehicle": .vehicle, "trip": .trip, "deliveryVehicle": .deliveryVehicle, "trackingId": .trackingID,
        ]
        let list = try ListParameters(
            parameters,
            allowed: ["vehicle", "trip", "deliveryVehicle", "trackingId", "account", "valid", "outcome", "since"])
        self.init(limit: list.pageSize + 1)
        if let token = list.pageToken {
            guard token.utf8.count == 30, token.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
            else {
                throw APIError.invalidArgument("pageToken is not one this server gave")
            }
            before = token
        }
        for (name, text) in list.others {
            switch name {
            case let name where resources[name] != nil:
                guard resource == nil else {
                    throw APIError.invalidArgument(
                        "give one of vehicle, trip, deliveryVehicle and trackingId, not several")
                }
                guard !text.isEmpty else { throw APIError.invalidArgument("\(name) is empty") }
                resource = Resource(resources[name]!, id: text)
            case "account":
                guard !text.isEmpty else { throw APIError.invalidArgument("account is empty") }
                account = text
            case "valid":
                guard text == "true" else {
                    throw APIError.invalidArgument("valid takes only true (tokens that can still be used)")
                }
                validAt = now
            case "outcome":
                guard let chosen = TokenRecord.Outcome(rawValue: text) else {
                    throw APIError.invalidArgument("outcome is issued or refused")
                }
                outcome = chosen
            case "since":
                guard let time = Self.time(text) else {
                    throw APIError.invalidArgument("since is an RFC 3339 time (2026-12-06T09:00:00Z) or epoch seconds")
                }
                since = time
            default:
                continue  // ListParameters refused every other name.
            }
        }
    }

    /// `text` as epoch seconds: digits, or an RFC 3339 time.
    package static func time(_ text: String) -> Int64? {
        if let seconds = Int64(text), seconds >= 0 { return seconds }
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return Int64(date.timeIntervalSince1970) }
        formatter.formatOptions.insert(.withFractionalSeconds)
        return formatter.date(from: text).map { Int64($0.timeIntervalSince1970) }
    }
}

extension TokenServer {
    /// `GET /v1/admin/issued-tokens`: the record of token requests, newest first, paged.
    func addRecordRoutes(to admin: RouterGroup<TokenServerContext>) {
        admin.get("issued-tokens") { request, _ in
            let query = try TokenRecordQuery(
                parameters: Array(request.uri.formQueryParameters), now: self.options.epochSeconds)
            let records = try await self.store.records(matching: query)
            let page = records.prefix(query.limit - 1)
            let next = records.count == query.limit ? page.last?.id : nil
            return try JSONResponse.make(
                IssuedTokensPage(issuedTokens: page.map(IssuedTokenEntry.init), nextPageToken: next))
        }
    }
}
