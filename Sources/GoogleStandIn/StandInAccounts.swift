import FleetTokens
import Foundation

/// The stand-in's memory: the service accounts it signs for, each with its keys, the access
/// tokens it handed out, what it was asked, and the faults tests inject.
///
/// An account's keys are published as Google publishes those it manages: the next key before it
/// signs anything, so that a verifier holding the published set already has it when a
/// rotation makes it current; the current one; and older ones, which stay published as Google
/// keeps a key valid for hours after it last signed.
package actor StandInAccounts {
    /// One key of an account.
    package struct Key: Sendable {
        /// Its id: IAM's `keyId`, the token's `kid`.
        package let id: String
        /// The key itself.
        package let privateKey: RSAPrivateKey
        let signer: RS256Signer
    }

    /// How many times each endpoint was called.
    package struct Calls: Sendable, Equatable {
        package var metadataToken = 0
        package var signJwt = 0
        package var publicKeys = 0
        /// The most signJwt calls that were answered at once.
        package var mostConcurrentSignJwt = 0
    }

    /// The service accounts that exist; IAM answers 404 for any other.
    private var existing: Set<String>
    /// By account: the current key first, then older ones.
    private var keys: [String: [Key]] = [:]
    /// By account: the key the next rotation makes current, published already.
    private var nextKeys: [String: Key] = [:]
    private var accessTokens: [String: Date] = [:]
    private var denied: Set<String> = []
    private var signJwtFaults: [Int] = []
    /// Whether the public-key endpoint answers 503, as an outage would.
    package private(set) var publicKeysDown = false
    private var signJwtRunning = 0
    package private(set) var calls = Calls()
    /// How long a signJwt answer is held back, as the network round trip to IAM would.
    let signJwtDelay: Duration

    init(signJwtDelay: Duration, serviceAccounts: [String]) {
        self.signJwtDelay = signJwtDelay
        self.existing = Set(serviceAccounts)
    }

    /// Creates the service account `email`, as `gcloud iam service-accounts create` would.
    package func create(_ email: String) {
        existing.insert(email)
    }

    /// Whether the service account `email` exists.
    func exists(_ email: String) -> Bool {
        existing.contains(email)
    }

    /// A new access token of the runtime account, valid for `lifetime` from `now`.
    func issueAccessToken(lifetime: TimeInterval, now: Date) -> String {
        calls.metadataToken += 1
        let token = "ya29.stand-in-" + Self.randomHex(bytes: 24)
        accessTokens[token] = now + lifetime
        return token
    }

    /// Whether `token` is an access token handed out here and still valid at `now`.
    func isValidAccessToken(_ token: String, now: Date) -> Bool {
        accessTokens[token].map { now < $0 } ?? false
    }

    /// Counts a signJwt call and says which injected fault, if any, answers it.
    func beginSignJwt() -> Int? {
        calls.signJwt += 1
        signJwtRunning += 1
        calls.mostConcurrentSignJwt = max(calls.mostConcurrentSignJwt, signJwtRunning)
        return signJwtFaults.isEmpty ? nil : signJwtFaults.removeFirst()
    }

    /// Counts a signJwt call as answered.
    func endSignJwt() {
        signJwtRunning -= 1
    }

    /// Whether the runtime account may sign as `email`.
    func maySign(as email: String) -> Bool {
        !denied.contains(email)
    }

    /// The current key of `email`, made on first use.
    package func currentKey(of email: String) async throws -> Key {
        if let key = keys[email]?.first { return key }
        let made = try await Self.makeKey()
        // Another caller may have made one while this one was made: the first stays.
        if let key = keys[email]?.first { return key }
        keys[email] = [made]
        return made
    }

    /// Every published key of `email`: the current one first, then the next one, then older
    /// ones; an account gets its first keys when first asked about, as every Google service
    /// account has keys.
    package func publishedKeys(of email: String) async throws -> [Key] {
        calls.publicKeys += 1
        _ = try await currentKey(of: email)
        let next = try await nextKey(of: email)
        // Read in one step after the awaits, so that a rotation meanwhile shows whole.
        let published = keys[email] ?? []
        return Array(published.prefix(1)) + [nextKeys[email] ?? next] + published.dropFirst()
    }

    /// Makes the published next key of `email` its current one, and publishes a new next key;
    /// the old ones stay published. Returns the new current key.
    @discardableResult
    package func rotateKey(of email: String) async throws -> Key {
        let key = try await nextKey(of: email)
        nextKeys[email] = nil
        keys[email, default: []].insert(key, at: 0)
        _ = try await nextKey(of: email)
        return key
    }

    /// The key the next rotation of `email` makes current, made on first use.
    private func nextKey(of email: String) async throws -> Key {
        if let key = nextKeys[email] { return key }
        let made = try await Self.makeKey()
        if let key = nextKeys[email] { return key }
        nextKeys[email] = made
        return made
    }

    /// A new RSA key, generated off the actor: keys for several accounts asked for at once
    /// (an engine loading every account's keys at start) are made on all cores, not one by one.
    private static func makeKey() async throws -> Key {
        try await Task.detached {
            let privateKey = try RSAPrivateKey.generate()
            guard let signer = RS256Signer(privateKey.backing) else { throw StandInError.signingUnavailable }
            return Key(id: randomHex(bytes: 20), privateKey: privateKey, signer: signer)
        }.value
    }

    /// Refuses (403) every signJwt as `email` from now on, or allows it again.
    package func setDenied(_ isDenied: Bool, for email: String) {
        if isDenied { denied.insert(email) } else { denied.remove(email) }
    }

    /// Answers the next signJwt calls with these HTTP statuses (0: no answer for
    /// ``GoogleStandIn/silence``) instead of a signature, one each, in order.
    package func injectSignJwtFaults(_ statuses: [Int]) {
        signJwtFaults += statuses
    }

    /// Takes the public-key endpoint down (503) or brings it back.
    package func setPublicKeysDown(_ isDown: Bool) {
        publicKeysDown = isDown
    }

    private static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}

/// Why the stand-in could not do what was asked.
enum StandInError: Error {
    /// The signing library refused a newly made key.
    case signingUnavailable
}
