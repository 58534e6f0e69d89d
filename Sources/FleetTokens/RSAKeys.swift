import CryptoExtras
import Foundation

/// An RSA public key that checks RS256 signatures (2048 bits or more).
///
/// FleetTokens' own type, so that its API does not depend on the underscored RSA types of
/// the crypto library underneath.
public struct RSAPublicKey: Sendable, Equatable {
    package let backing: _RSA.Signing.PublicKey

    package init(_ backing: _RSA.Signing.PublicKey) {
        self.backing = backing
    }

    /// Reads a PEM public key (`-----BEGIN PUBLIC KEY-----`, or PKCS #1 `RSA PUBLIC KEY`).
    ///
    /// - Throws: An error of the crypto library when the text is not an RSA public key of
    ///   2048 bits or more.
    public init(pemRepresentation pem: String) throws {
        self.init(try _RSA.Signing.PublicKey(pemRepresentation: pem))
    }

    /// Reads a DER SubjectPublicKeyInfo (or PKCS #1) public key.
    ///
    /// - Throws: An error of the crypto library when the bytes are not an RSA public key of
    ///   2048 bits or more.
    public init(derRepresentation der: Data) throws {
        self.init(try _RSA.Signing.PublicKey(derRepresentation: der))
    }

    /// The key as PEM SubjectPublicKeyInfo.
    public var pemRepresentation: String { backing.pemRepresentation }

    /// The key as DER SubjectPublicKeyInfo.
    public var derRepresentation: Data { backing.derRepresentation }

    /// Whether two values hold the same key.
    public static func == (lhs: RSAPublicKey, rhs: RSAPublicKey) -> Bool {
        lhs.derRepresentation == rhs.derRepresentation
    }
}

/// An RSA private key that signs RS256 tokens (2048 bits or more).
public struct RSAPrivateKey: Sendable {
    package let backing: _RSA.Signing.PrivateKey

    package init(_ backing: _RSA.Signing.PrivateKey) {
        self.backing = backing
    }

    /// Reads a PEM private key (PKCS #8 `PRIVATE KEY`, as in Google's key files, or PKCS #1).
    ///
    /// - Throws: An error of the crypto library when the text is not an RSA private key of
    ///   2048 bits or more.
    public init(pemRepresentation pem: String) throws {
        self.init(try _RSA.Signing.PrivateKey(pemRepresentation: pem))
    }

    /// Makes a new random 2048-bit key.
    ///
    /// - Throws: An error of the crypto library when key generation fails.
    public static func generate() throws -> RSAPrivateKey {
        RSAPrivateKey(try _RSA.Signing.PrivateKey(keySize: .bits2048))
    }

    /// The public half.
    public var publicKey: RSAPublicKey { RSAPublicKey(backing.publicKey) }

    /// The key as PEM PKCS #8, the form Google's key files hold. A secret: keep it out of logs.
    public var pkcs8PEMRepresentation: String { backing.pkcs8PEMRepresentation }
}
