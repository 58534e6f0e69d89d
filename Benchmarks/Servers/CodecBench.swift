import ArgumentParser
import CommandSupport
import FleetAuthCodecs
import FleetAuthServerHTTP
import FleetTokens
import Foundation

/// `fleetauth-bench codecs`: each hand-written reader on the token path beside the library code
/// it stands in for, on the same token, interleaved round by round: the strict base64url
/// decoder (Foundation's base64 with the URL alphabet swapped in and the padding put back) and
/// the claims reader (`JSONDecoder`). Both are kept for what the library does not do (a
/// non-canonical spelling, a duplicate key refused); the table says what that costs or saves.
/// (The writers, base64url encoding and JSON, rest on Foundation: they gained nothing on
/// tokens/s, docs/architecture.md's ledger.)
struct CodecBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codecs",
        abstract:
            "Hand-written readers (base64url decoding, claims JSON) against Foundation's, on the same token; a release build fails when one is slower than the library."
    )

    @Option(help: "Rounds to interleave (medians are reported).")
    var rounds = 5

    @Option(help: "Seconds of CPU time per measurement.")
    var seconds = 1.0

    @Flag(help: "Print JSON.")
    var json = false

    /// One codec against the library code it stands in for.
    struct Row: Encodable {
        let codec: String
        let ownPerSecond: Double
        let libraryPerSecond: Double
        /// ``ownPerSecond`` ÷ ``libraryPerSecond``: above 1 the hand-written one pays.
        let speedup: Double
    }

    /// What is measured: a name, the hand-written codec and the library's way.
    private struct Pair {
        let codec: String
        let own: () throws -> Void
        let library: () throws -> Void
    }

    func run() throws {
        let key = try ServiceAccountKey.generate(projectID: "bench-project", role: .driverSDKUser)
        let token = try TokenMinter(key: key).mint(.driver(vehicleID: "vehicle-42")).token
        let segments = token.split(separator: ".")
        guard segments.count == 3, let payload = Base64URL.decode(segments[1]), Base64URL.decode(segments[2]) != nil
        else {
            throw CommandFailure("the minted token is not three base64url segments")
        }
        let claims = try JSONDecoder().decode(FleetEngineClaims.self, from: payload)
        try check(payload: payload, segment: segments[1], claims: claims)

        let decoder = JSONDecoder()
        let pairs = [
            Pair(
                codec: "base64url decode (claims segment)",
                own: { consume(Base64URL.decode(segments[1])) },
                library: { consume(Self.foundationDecode(segments[1])) }),
            Pair(
                codec: "claims read (JSONCursor)",
                own: { consume(try ClaimsPayload(json: payload)) },
                library: { consume(try decoder.decode(FleetEngineClaims.self, from: payload)) }),
        ]
        var own = Array(repeating: [Double](), count: pairs.count)
        var library = own
        for round in 1...rounds {
            for (index, pair) in pairs.enumerated() {
                own[index].append(try Throughput.measure(seconds: seconds, pair.own))
                library[index].append(try Throughput.measure(seconds: seconds, pair.library))
            }
            if !json { FileHandle.standardError.write(Data("round \(round)/\(rounds) done\n".utf8)) }
        }
        let rows = pairs.indices.map { index in
            let (mine, theirs) = (Throughput.median(own[index]), Throughput.median(library[index]))
            return Row(codec: pairs[index].codec, ownPerSecond: mine, libraryPerSecond: theirs, speedup: mine / theirs)
        }
        if json {
            try JSONOutput.print(rows)
        } else {
            print("codec                                         own/s     library/s   own ÷ library")
            for row in rows {
                print(
                    row.codec.padding(toLength: 40, withPad: " ", startingAt: 0)
                        + String(
                            format: "%12.0f  %12.0f   %5.2fx  %@", row.ownPerSecond, row.libraryPerSecond, row.speedup,
                            row.speedup >= 1 ? "pays" : "DOES NOT PAY"))
            }
        }
        // The promise each hand-written codec keeps its place by: it beats the library it stands
        // in for, in the same run. Only optimized code can keep it (the quick CI run is a debug
        // build, where the library's optimized code wins), so only a release build checks it.
        #if !DEBUG
            let unpaid = rows.filter { $0.speedup < 1 }.map(\.codec)
            guard unpaid.isEmpty else {
                throw CommandFailure("slower than the library it replaces: \(unpaid.joined(separator: ", "))")
            }
        #endif
    }

    /// Both ways of each codec give the same result on this token, or the comparison is void.
    private func check(payload: Data, segment: Substring, claims: FleetEngineClaims) throws {
        guard Base64URL.decode(segment) == Self.foundationDecode(segment),
            let read = try? ClaimsPayload(json: payload),
            read.iss == claims.issuer, read.sub == claims.subject, read.audiences == [claims.audience],
            read.iat == claims.issuedAt, read.exp == claims.expiresAt, read.authorization == claims.authorization,
            try JSONDecoder().decode(FleetEngineClaims.self, from: Data(claims.jsonBytes)) == claims
        else { throw CommandFailure("a hand-written codec and the library disagree on the bench's token") }
    }

    /// Unpadded base64url with Foundation: the standard alphabet and the padding put back.
    private static func foundationDecode(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}

/// Keeps `value` alive past the optimizer, so that a measured call is not removed as unused.
@inline(never)
private func consume<Value>(_ value: Value) {
    withExtendedLifetime(value) {}
}
