import CryptoExtras
import FleetAuthCodecs
import Foundation

/// A JSON Web Key Set (RFC 7517) of signing keys: public parts only. FleetAuth publishes RSA
/// keys; sets read from OpenID Connect issuers may also hold P-256 (`EC`) keys.
///
/// Each key may carry two FleetAuth members beside the standard ones, `email` (the service
/// account that owns it) and `role` (its Fleet Engine role), so that one document can tell a
/// verifier everything it needs. Readers that do not know them ignore them, as RFC 7517 asks.
public struct JSONWebKeySet: Sendable, Hashable, Codable {
    /// The keys.
    public var keys: [JSONWebKey]

    /// Creates a set from keys.
    public init(keys: [JSONWebKey]) {
        self.keys = keys
    }

    /// The public keys of service-account keys, each labelled with its account and role.
    public init(publishing accounts: [(key: ServiceAccountKey, role: FleetEngineRole)]) throws(JSONWebKeySetError) {
        var keys: [JSONWebKey] = []
        for (key, role) in accounts {
            keys.append(
                try JSONWebKey(
                    publishing: key.publicKey, keyID: key.privateKeyID, email: key.clientEmail, role: role.rawValue))
        }
        self.init(keys: keys)
    }

    /// Reads a JWKS document.
    public init(json: Data) throws(JSONWebKeySetError) {
        do {
            self = try JSONDecoder().decode(JSONWebKeySet.self, from: json)
        } catch {
            throw .malformed("not a JWKS document ({\"keys\": [...]}): \(DecodingProblem.describe(error))")
        }
    }

    /// The document as JSON (sorted keys, so that equal sets give equal bytes).
    public func jsonRepresentation() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        // Encoding strings cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }

    /// The accounts these keys belong to, ready to trust.
    ///
    /// A key's account is its `email` member, else `email`; its role is its `role` member, else
    /// `role`, else the role a FleetAuth-generated email stands for. Keys that are not RSA
    /// signature keys are skipped.
    public func trustedAccounts(email: String? = nil, role: FleetEngineRole? = nil) throws(JSONWebKeySetError)
        -> [TrustedServiceAccount]
    {
        var accounts: [String: TrustedServiceAccount] = [:]
        for key in keys {
            guard case .rs256(let publicKey) = try key.publicKey() else { continue }
            guard let keyID = key.keyID else { throw .unusableKey(keyID: nil, problem: "it has no kid") }
            guard let owner = key.email ?? email else {
                throw .unusableKey(
                    keyID: keyID, problem: "its account is unknown: the key has no email member and none was given")
            }
            let ownerRole: FleetEngineRole
            if let name = key.role {
                guard let named = FleetEngineRole(name: name) else {
                    throw .unusableKey(keyID: keyID, problem: "role '\(name)' is not a Fleet Engine role")
                }
                ownerRole = named
            } else if let found = role ?? FleetEngineRole(generatedAccountEmail: owner) {
                ownerRole = found
            } else {
                throw .unusableKey(keyID: keyID, problem: "the role of \(owner) is unknown: give one")
            }
            let account = TrustedServiceAccount(email: owner, role: ownerRole, publicKeys: [keyID: publicKey])
            if let existing = accounts[owner] {
                guard existing.role == ownerRole else {
                    throw .unusableKey(keyID: keyID, problem: "\(owner) is listed with two roles")
                }
                accounts[owner] = existing.merging(account)
            } else {
                accounts[owner] = account
            }
        }
        guard !accounts.isEmpty else { throw .malformed("the set has no RSA signature key") }
        return accounts.values.sorted { $0.email < $1.email }
    }
}

/// One public key of a ``JSONWebKeySet``: RSA (`n`, `e`) or elliptic-curve (`crv`, `x`, `y`).
public struct JSONWebKey: Sendable, Hashable, Codable {
    /// `kty`, `RSA` or `EC`.
    public var keyType: String
    /// `alg`, `RS256` or `ES256`.
    public var algorithm: String?
    /// `use`, `sig`.
    public var use: String?
    /// `kid`, the key file's `private_key_id`.
    public var keyID: String?
    /// `n`, the modulus of an RSA key, base64url.
    public var modulus: String?
    /// `e`, the public exponent of an RSA key, base64url.
    public var exponent: String?
    /// `crv`, the curve of an EC key, `P-256`.
    public var curve: String?
    /// `x`, the x coordinate of an EC key, base64url.
    public var x: String?
    /// `y`, the y coordinate of an EC key, base64url.
    public var y: String?
    /// The owning service account's email (a FleetAuth member).
    public var email: String?
    /// The owning account's Fleet Engine role, e.g. `roles/fleetengine.driverSdkUser` (a FleetAuth member).
    public var role: String?

    enum CodingKeys: String, CodingKey {
        case keyType = "kty", algorithm = "alg", use, keyID = "kid", modulus = "n", exponent = "e", curve = "crv", x, y,
            email, role
    }

    /// Creates an RS256 signature key.
    public init(keyID: String, modulus: String, exponent: String, email: String? = nil, role: String? = nil) {
        self.keyType = "RSA"
        self.algorithm = JOSEHeader.rs256
        self.use = "sig"
        self.keyID = keyID
        self.modulus = modulus
        self.exponent = exponent
        self.email = email
        self.role = role
    }

    /// The RS256 signature key that publishes `publicKey` under `keyID`.
    ///
    /// - Throws: ``JSONWebKeySetError/unusableKey(keyID:problem:)`` when the key's modulus and
    ///   exponent cannot be read.
    public init(publishing publicKey: RSAPublicKey, keyID: String, email: String? = nil, role: String? = nil)
        throws(JSONWebKeySetError)
    {
        guard let primitives = try? publicKey.backing.getKeyPrimitives() else {
            throw .unusableKey(keyID: keyID, problem: "its public key cannot be exported")
        }
        self.init(
            keyID: keyID,
            modulus: Base64URL.encode(primitives.modulus),
            exponent: Base64URL.encode(primitives.publicExponent),
            email: email,
            role: role
        )
    }

    /// Creates an ES256 signature key from its P-256 coordinates, base64url.
    public init(keyID: String, p256X x: String, y: String) {
        self.keyType = "EC"
        self.algorithm = JOSEHeader.es256
        self.use = "sig"
        self.keyID = keyID
        self.curve = "P-256"
        self.x = x
        self.y = y
    }
}

/// Why a JWKS document could not be used.
#if hasAttribute(nonexhaustive)
    @nonexhaustive  // more cases may come: switch with `@unknown default`
#endif
public enum JSONWebKeySetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The document is not a JWKS.
    case malformed(String)
    /// A key in it cannot be used.
    case unusableKey(keyID: String?, problem: String)

    public var description: String {
        switch self {
        case .malformed(let problem): "JWKS: \(problem)"
        case .unusableKey(let keyID, let problem): "JWKS key \(keyID.map { "'\($0)'" } ?? "(no kid)"): \(problem)"
        }
    }
}
