import ArgumentParser
import CommandSupport
import Foundation
import TokenServer

/// `fleetauth audit`: the record of token requests, newest first, as a table or as JSON lines.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Show the record of token requests: tokens handed out and requests refused, newest first.",
        discussion: """
            Reads the token server's database (a running server's too). E.g. who can still act on \
            vehicle V, and until when: fleetauth audit --data-dir DIR --vehicle V --valid
            """
    )

    @OptionGroup var data: TokenServerDataOptions

    @Option(help: "Only records of this vehicle.")
    var vehicle: String?

    @Option(help: "Only records of this trip.")
    var trip: String?

    @Option(help: "Only records of this delivery vehicle.")
    var deliveryVehicle: String?

    @Option(help: "Only records of this tracking id.")
    var trackingId: String?

    @Option(help: "Only this account's records.")
    var account: String?

    @Flag(help: "Only tokens handed out that have not expired.")
    var valid = false

    @Option(help: "Only tokens handed out (issued), or only refusals (refused).")
    var outcome: String?

    @Option(help: ArgumentHelp("Only records made at or after this time.", valueName: "RFC 3339 time or epoch seconds"))
    var since: String?

    @Option(help: "The most records shown.")
    var limit = 100

    @Flag(help: "Print one JSON object a line (for a SIEM), the fields of GET /v1/admin/issued-tokens.")
    var json = false

    func validate() throws {
        let resources = [vehicle, trip, deliveryVehicle, trackingId].compactMap { $0 }
        guard resources.count <= 1 else {
            throw ValidationError("give one of --vehicle, --trip, --delivery-vehicle and --tracking-id")
        }
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1") }
        if let outcome, TokenRecord.Outcome(rawValue: outcome) == nil {
            throw ValidationError("--outcome is issued or refused")
        }
        if let since, TokenRecordQuery.time(since) == nil {
            throw ValidationError("--since is an RFC 3339 time (2026-12-06T09:00:00Z) or epoch seconds")
        }
    }

    /// The resource filter given, if any.
    private var resource: Resource? {
        if let vehicle { return Resource(.vehicle, id: vehicle) }
        if let trip { return Resource(.trip, id: trip) }
        if let deliveryVehicle { return Resource(.deliveryVehicle, id: deliveryVehicle) }
        return trackingId.map { Resource(.trackingID, id: $0) }
    }

    func run() async throws {
        let now = Int64(Date().timeIntervalSince1970)
        let query = TokenRecordQuery(
            resource: resource, account: account, validAt: valid ? now : nil,
            outcome: outcome.flatMap(TokenRecord.Outcome.init(rawValue:)),
            since: since.flatMap(TokenRecordQuery.time), limit: limit)
        let records = try await data.withStore { try await $0.records(matching: query) }
        if json { return try records.forEach { try JSONOutput.printLine(IssuedTokenEntry($0)) } }
        if records.isEmpty { return print("no records") }
        let header = ["TIME", "OUTCOME", "ACCOUNT", "KIND", "RESOURCE", "EXPIRES / REASON", "KID", "CLIENT"]
        TextTable.print([header] + records.map { Self.row(of: $0, now: now) })
    }

    /// A record's row of the table.
    private static func row(of record: TokenRecord, now: Int64) -> [String] {
        let resource = record.resource.map { "\($0.kind.rawValue)/\($0.id)" } ?? "*"
        let end: String
        if let expiresAt = record.expiresAt {
            end = TimeText.utc(epochSeconds: expiresAt) + (expiresAt > now ? "" : " (expired)")
        } else {
            end = record.reason ?? ""
        }
        return [
            TimeText.utc(epochSeconds: record.recordedAt), record.outcome.rawValue, record.account, record.kind,
            resource, end,
            String((record.keyID ?? "").prefix(12)), record.clientAddress ?? "",
        ]
    }
}
