import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix

/// Hashes and checks passwords with bcrypt, on NIO's blocking thread pool so that the
/// deliberately slow work never stalls request handling.
///
/// bcrypt reads at most 72 bytes; a longer password is hashed with SHA-256 first (its base64
/// is what bcrypt reads), so that every character counts and passwords of up to 72 bytes keep
/// the hashes they always had.
package struct PasswordHasher: Sendable {
    /// bcrypt's cost (log2 of its rounds), 4 to 31.
    package let cost: UInt8
    /// A hash of no one's password, checked against when the account does not exist so that a
    /// wrong username takes as long as a wrong password.
    private let decoyHash: String

    /// A hasher with `cost` (12 by default; 4, the least, makes tests fast).
    package init(cost: UInt8 = 12) {
        let cost = min(max(cost, 4), 31)
        self.cost = cost
        self.decoyHash = Bcrypt.hash("decoy password of no account", cost: cost)
    }

    /// The bcrypt hash of `password`.
    package func hash(_ password: String) async throws -> String {
        let cost = self.cost, input = Self.bcryptInput(password)
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(input, cost: cost) }
    }

    /// Whether `password` matches `hash`; with no hash, spends the same time and says no.
    package func verify(_ password: String, hash: String?) async throws -> Bool {
        // bcrypt reads C strings: a NUL would cut the password short.
        let usable = !password.utf8.contains(0)
        let checked = hash ?? decoyHash, input = Self.bcryptInput(password)
        let matches = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(input, hash: checked) }
        return usable && hash != nil && matches
    }

    /// The most bytes bcrypt reads.
    static let bcryptInputLimit = 72

    /// What bcrypt is given for `password`: the password itself up to 72 bytes of UTF-8, else
    /// the base64 of its SHA-256 (44 bytes, never a NUL).
    static func bcryptInput(_ password: String) -> String {
        guard password.utf8.count > bcryptInputLimit else { return password }
        return Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }
}
