import ArgumentParser
import CommandSupport
import FleetTokens
import Foundation

/// `fleetauth mint`: signs a Fleet Engine token with a service-account key file, or through
/// IAM as a service account.
struct MintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mint",
        abstract: "Mint a Fleet Engine token (RS256) with a service-account key file, or keylessly through IAM.",
        discussion: """
            Examples:
              fleetauth mint --key driver.json --kind driver --vehicle vehicle-1
              fleetauth mint --key consumer.json --kind consumer --trip trip-7 --lifetime 600
              fleetauth mint --key server.json --kind server --json
              fleetauth mint --signer fe-driver@my-fleet.iam.gserviceaccount.com --kind driver --vehicle vehicle-1
            With --signer the token is signed by IAM (signJwt) as that account, with the access token of \
            the account this runs as, from the metadata server ($GCE_METADATA_HOST).
            """
    )

    @Option(help: "The service-account key file that signs.")
    var key: String?

    @Option(help: "Sign through IAM as this service account instead of with a key file.")
    var signer: String?

    @Option(help: "The IAM Service Account Credentials API (with --signer).")
    var iamCredentialsURL = IAMSigner.defaultIAMCredentialsURL.absoluteString

    @Option(help: "The kind of token.")
    var kind: TokenKind.Name

    @Option(help: "Vehicle id (driver).")
    var vehicle: String?

    @Option(help: "Trip id (consumer).")
    var trip: String?

    @Option(name: .customLong("delivery-vehicle"), help: "Delivery vehicle id (delivery drivers).")
    var deliveryVehicle: String?

    @Option(help: "Task id (trusted delivery driver, or delivery consumer by task).")
    var task: String?

    @Option(help: "Tracking id (delivery consumer).")
    var tracking: String?

    @Option(help: "Lifetime in seconds, 1 to 3600.")
    var lifetime: Int64 = FleetEngineClaims.maximumLifetime

    @Option(help: "The aud claim.")
    var audience: String = FleetEngineClaims.fleetEngineAudience

    @Flag(help: "Print JSON: token, times and claims.")
    var json = false

    func validate() throws {
        guard (key == nil) != (signer == nil) else {
            throw ValidationError("give --key FILE or --signer EMAIL (one of them)")
        }
        if signer != nil, audience != FleetEngineClaims.fleetEngineAudience {
            throw ValidationError(
                "--audience is for key files; tokens signed through IAM carry Fleet Engine's audience")
        }
    }

    func run() async throws {
        let tokenKind = try resolvedKind()
        let signer = try makeSigner()
        let minted: MintedToken
        do {
            minted = try await signer.mint(tokenKind, lifetime: .seconds(lifetime), at: Date())
        } catch let error as GoogleAPIError {
            throw CommandFailure(error.description)
        }
        if let warning = RoleFit.warning(kind: tokenKind, signerEmail: signer.accountEmail) {
            FileHandle.standardError.write(Data("warning: \(warning)\n".utf8))
        }
        if json {
            try JSONOutput.print(MintedTokenOutput(minted, kind: tokenKind))
        } else {
            print(minted.token)
        }
    }

    /// The key file's minter, or the IAM signer for `--signer`.
    private func makeSigner() throws -> any FleetTokenSigner {
        if let signer {
            guard let url = URL(string: iamCredentialsURL) else {
                throw ValidationError("--iam-credentials-url must be a URL")
            }
            return try IAMSigner(
                accountEmail: signer, credentials: try MetadataServerCredentials(), iamCredentialsURL: url)
        }
        return try TokenMinter(key: try ServiceAccountKey(contentsOf: key ?? ""), audience: audience)
    }

    /// The kind `--kind` names, scoped to the ids given.
    private func resolvedKind() throws -> TokenKind {
        let scope = AuthorizationClaims(
            vehicleID: vehicle, tripID: trip, deliveryVehicleID: deliveryVehicle, taskID: task, trackingID: tracking)
        do {
            return try TokenKind(kind, scope: scope)
        } catch {
            let options = error.needs.map(Self.option(giving:))
            throw ValidationError("--kind \(kind.rawValue) needs \(options.joined(separator: " or "))")
        }
    }

    /// The option that gives `id`.
    private static func option(giving id: TokenKind.ScopeID) -> String {
        switch id {
        case .vehicle: "--vehicle"
        case .trip: "--trip"
        case .deliveryVehicle: "--delivery-vehicle"
        case .task: "--task"
        case .tracking: "--tracking"
        }
    }
}

/// The kinds `--kind` accepts: every kind of token by name, or a former spelling of one.
extension TokenKind.Name: ExpressibleByArgument {
    package init?(argument: String) {
        if let kind = Self(rawValue: argument) {
            self = kind
        } else if let current = FormerSpellings.all[argument], let kind = Self(rawValue: current) {
            noteFormerSpelling(option: "--kind", former: argument, current: current)
            self = kind
        } else {
            return nil
        }
    }
}

/// The JSON `fleetauth mint --json` prints: the same fields the token server returns.
struct MintedTokenOutput: Encodable {
    let token: String
    let kind: String
    let issuedAt: Int64
    let expiresAt: Int64
    let expiresInSeconds: Int64
    let claims: FleetEngineClaims

    init(_ minted: MintedToken, kind: TokenKind) {
        token = minted.token
        self.kind = kind.name
        issuedAt = minted.claims.issuedAt
        expiresAt = minted.claims.expiresAt
        expiresInSeconds = minted.claims.lifetime
        claims = minted.claims
    }
}
