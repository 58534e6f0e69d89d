import ArgumentParser
import CommandSupport
import FleetTokens
import Foundation

/// `fleetauth inspect`: decodes a token without verifying it and explains it.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Decode a token without verifying it; show its claims, times and what Fleet Engine would refuse."
    )

    @Argument(help: "The token, or - to read it from standard input.")
    var token: String

    @Option(help: "The audience Fleet Engine expects.")
    var audience: String = FleetEngineClaims.fleetEngineAudience

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let now = Date()
        let inspection = try TokenInspection(token: try TokenArgument.read(token), audience: audience, now: now)
        let currentTime = Int64(now.timeIntervalSince1970.rounded(.down))
        if json {
            try JSONOutput.print(InspectionOutput(inspection, now: currentTime))
            return
        }
        print("header:")
        print(indent(inspection.headerJSON))
        print("claims:")
        print(indent(inspection.payloadJSON))
        if let claims = inspection.claims {
            print(
                "issued:   \(TimeText.utc(epochSeconds: claims.issuedAt)) (\(relative(claims.issuedAt - currentTime)))")
            print(
                "expires:  \(TimeText.utc(epochSeconds: claims.expiresAt)) (\(relative(claims.expiresAt - currentTime)))"
            )
            print("lifetime: \(TimeText.span(seconds: claims.lifetime))")
            if let role = FleetEngineRole(generatedAccountEmail: claims.issuer) {
                print("signer:   \(claims.issuer) (\(role.rawValue), by its FleetAuth account name)")
            }
        }
        if inspection.problems.isEmpty {
            print(
                "Fleet Engine would accept this token's form (the signature is not checked here; use 'fleetauth verify')."
            )
        } else {
            print("Fleet Engine would refuse or warn:")
            for problem in inspection.problems { print("  - \(problem)") }
        }
    }

    private func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }.joined(separator: "\n")
    }

    private func relative(_ seconds: Int64) -> String {
        if seconds == 0 { return "now" }
        return seconds > 0 ? "in \(TimeText.span(seconds: seconds))" : "\(TimeText.span(seconds: seconds)) ago"
    }
}

/// The JSON `fleetauth inspect --json` prints.
struct InspectionOutput: Encodable {
    let header: JOSEHeader
    let claims: FleetEngineClaims?
    let expiresInSeconds: Int64?
    let problems: [String]

    init(_ inspection: TokenInspection, now: Int64) {
        header = inspection.header
        claims = inspection.claims
        expiresInSeconds = inspection.claims.map { $0.expiresAt - now }
        problems = inspection.problems
    }
}
