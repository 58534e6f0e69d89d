import FleetAuthServerStorage
import SQLKit

/// Which records to list (``TokenServerStore/records(matching:)``): every filter given must
/// hold; newest first.
package struct TokenRecordQuery: Sendable, Equatable {
    /// Only records of this resource (a vehicle, trip, delivery vehicle or tracking id).
    package var resource: Resource?
    /// Only this account's.
    package var account: String?
    /// Only tokens handed out that can still be used at this time (epoch seconds).
    package var validAt: Int64?
    /// Only tokens handed out, or only refusals.
    package var outcome: TokenRecord.Outcome?
    /// Only records made at or after this time (epoch seconds).
    package var since: Int64?
    /// Only records older than the record of this id (the page before was up to it).
    package var before: String?
    /// At most this many.
    package var limit: Int

    /// A query; with no filter, the newest `limit` records.
    package init(
        resource: Resource? = nil, account: String? = nil, validAt: Int64? = nil, outcome: TokenRecord.Outcome? = nil,
        since: Int64? = nil,
        before: String? = nil, limit: Int = 100
    ) {
        self.resource = resource
        self.account = account
        self.validAt = validAt
        self.outcome = outcome
        self.since = since
        self.before = before
        self.limit = limit
    }
}

extension TokenServerStore {
    /// The record's columns, in the order ``append(_:)`` writes them and the reads list them.
    private static let recordColumns =
        ["id", "recorded_at", "outcome", "reason", "account", "role", "kind"]
        + ResourceKind.allCases.map(column(for:))
        + ["kid", "issued_at", "expires_at", "session_id", "client_address"]

    /// The column that holds ids of `kind`.
    private static func column(for kind: ResourceKind) -> String {
        switch kind {
        case .vehicle: "vehicle_id"
        case .trip: "trip_id"
        case .deliveryVehicle: "delivery_vehicle_id"
        case .trackingID: "tracking_id"
        }
    }

    /// Writes `records` in one statement: all of them, or none. A record written already (its
    /// id is there: a write whose answer was lost, tried again) is left as it is.
    package func append(_ records: [TokenRecord]) async throws {
        guard !records.isEmpty else { return }
        try await recordDatabase.append(
            RowsInsert(
                into: "token_server_token_records", columns: Self.recordColumns, rows: records.map(Self.values(of:)),
                conflictClause: "ON CONFLICT (id) DO NOTHING"))
    }

    /// `record`'s values, in the order of ``recordColumns``.
    private static func values(of record: TokenRecord) -> [(any Encodable & Sendable)?] {
        let resources = ResourceKind.allCases.map { kind in
            record.resource?.kind == kind ? record.resource?.id : nil
        }
        return [
            record.id, record.recordedAt, record.outcome.rawValue, record.reason, record.account, record.role,
            record.kind,
        ] + resources + [record.keyID, record.issuedAt, record.expiresAt, record.sessionID, record.clientAddress]
    }

    /// Copies what the record's SQLite WAL holds back into its file, mostly beside the record's
    /// writes (``ServerDatabase/checkpoint()``). Returns whether all of it was, so that the next
    /// write starts the WAL over; never on PostgreSQL, which has no WAL to copy.
    package func checkpointRecord() async throws -> Bool {
        try await recordDatabase.checkpoint()
    }

    /// The records `query` asks for, newest first.
    package func records(matching query: TokenRecordQuery) async throws -> [TokenRecord] {
        var select = recordDatabase.sql.select().columns(Self.recordColumns.map { SQLColumn($0) }).from(
            "token_server_token_records")
        if let resource = query.resource {
            select = select.where(SQLColumn(Self.column(for: resource.kind)), .equal, SQLBind(resource.id))
        }
        if let account = query.account { select = select.where("account", .equal, SQLBind(account)) }
        if let validAt = query.validAt {
            select = select.where("outcome", .equal, SQLBind(TokenRecord.Outcome.issued.rawValue)).where(
                "expires_at", .greaterThan, SQLBind(validAt))
        }
        if let outcome = query.outcome { select = select.where("outcome", .equal, SQLBind(outcome.rawValue)) }
        if let since = query.since {
            select = select.where("id", .greaterThanOrEqual, SQLBind(TokenRecordIDs.lowerBound(since: since)))
        }
        if let before = query.before { select = select.where("id", .lessThan, SQLBind(before)) }
        let rows = try await select.orderBy("id", .descending).limit(query.limit).all()
        return try rows.map(Self.record(from:))
    }

    /// Deletes the records made before `time` (epoch seconds), a range of ids; returns how many.
    package func pruneRecords(before time: Int64) async throws -> Int {
        try await recordDatabase.writes.raw(
            "DELETE FROM token_server_token_records WHERE id < \(bind: TokenRecordIDs.lowerBound(since: time)) RETURNING id"
        ).all().count
    }

    private static func record(from row: any SQLRow) throws -> TokenRecord {
        func text(_ column: String) throws -> String? {
            try row.decodeNil(column: column) ? nil : row.decode(column: column, as: String.self)
        }
        func number(_ column: String) throws -> Int64? {
            try row.decodeNil(column: column) ? nil : row.decode(column: column, as: Int64.self)
        }
        var resource: Resource?
        for kind in ResourceKind.allCases where resource == nil {
            resource = try text(column(for: kind)).map { Resource(kind, id: $0) }
        }
        return TokenRecord(
            id: try row.decode(column: "id", as: String.self),
            recordedAt: try row.decode(column: "recorded_at", as: Int64.self),
            outcome: TokenRecord.Outcome(rawValue: try row.decode(column: "outcome", as: String.self)) ?? .refused,
            reason: try text("reason"), account: try row.decode(column: "account", as: String.self),
            role: try text("role"),
            kind: try row.decode(column: "kind", as: String.self), resource: resource, keyID: try text("kid"),
            issuedAt: try number("issued_at"),
            expiresAt: try number("expires_at"), sessionID: try text("session_id"),
            clientAddress: try text("client_address"))
    }
}
