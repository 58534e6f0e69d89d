import FleetAuthLocking
import FleetTokens
import Foundation
import Logging

/// The token server's signing keys as they change with no restart: every key a role has signed
/// with, kept in the database so that a rotation on one replica reaches all of them.
///
/// A role's newest key signs its tokens. A key replaced by a newer one stays published (in the
/// JWKS, and to the local Fleet Engine run beside the server) until the last token it can have
/// signed has expired: the token lifetime after it was replaced, plus the overlap
/// (``TokenServerOptions/keyOverlap``) that covers replicas still signing with it until they
/// hear of the change. It is then retired: out of the JWKS, its file moved to `keys/retired/`.
/// A new key is published at the moment it starts to sign, and listeners hear of it first.
///
/// Keys arrive three ways: made here by ``rotate(_:)`` (`POST /v1/admin/keys/{role}:rotate`,
/// `fleetauth keys rotate`); read from a file put into `keys/` (``importKeyFiles()``, on
/// SIGHUP and at start; a key made in Google's IAM); or made at first start for a role with
/// none. Each replica asks the ring's version once a second
/// (``TokenServerStore/signingKeysVersion()``, one small query), reads the ring again when it
/// changed, retires what is due, and writes `keys/` to match (``KeyFolder``).
package final class SigningKeyRing: Sendable {
    /// How often the ring is read again: the most a change made elsewhere takes to sign here.
    static let followInterval = Duration.seconds(1)

    /// The ring as last read.
    private struct Snapshot: Sendable {
        /// What ``TokenServerStore/signingKeysVersion()`` said.
        let version: String
        /// Every key, retired ones included.
        let keys: [StoredSigningKey]
        /// The key that signs each role's tokens.
        let signing: SigningKeys
        /// The accounts and keys published, each account with all its published keys.
        let published: [TrustedServiceAccount]
        /// `/.well-known/jwks.json`.
        let jsonWebKeySet: Data
        /// The signers of each account role.
        let signers: RoleSigners
    }

    /// The project every key belongs to.
    package let projectID: String
    private let store: TokenServerStore
    private let folder: KeyFolder
    /// The roles that sign through IAM: they have no keys here.
    private let keyless: Set<FleetEngineRole>
    private let retirement: KeyRetirement
    private let now: @Sendable () -> Date
    private let logger: Logger
    /// The signers the ring's keys are put into; IAM signers and kept tokens stay across changes.
    private let baseSigners: RoleSigners
    private let snapshot: Locked<Snapshot>
    /// Reads and changes one at a time.
    private let changes = ConcurrencyLimit(1)
    private let listeners = Locked<[@Sendable ([TrustedServiceAccount]) -> Void]>([])
    private let follower = Locked<Task<Void, Never>?>(nil)
    /// Whether the last reading failed (logged once per run of failures).
    private let failing = Locked(false)

    /// Opens the ring of `store`: the key files of `folder` not in it yet are added (a
    /// data directory of an earlier version brings its `keys/<role>.json` so), a key is made
    /// for each role that has none, and `folder` is written to match.
    ///
    /// - Throws: ``KeyFileError`` for a key file that cannot be used (unreadable, misnamed, of
    ///   another project) or a folder that cannot be made; the store's errors.
    package static func open(
        store: TokenServerStore, folder path: String, projectID: String, options: TokenServerOptions, logger: Logger
    ) async throws -> SigningKeyRing {
        let folder = KeyFolder(path: path)
        try folder.create()
        let keyless = Set(options.keyless.signers.keys)
        let scanned = folder.scan()
        if let problem = scanned.problems.first { throw problem }
        let at = options.epochSeconds
        try await add(scanned.found, to: store, projectID: projectID, keyless: keyless, at: at)
        let roles = try await store.signingKeyRoles()
        let missing = FleetEngineRole.allCases.filter { !keyless.contains($0) && !roles.contains($0) }
        _ = try await store.addSigningKeys(
            missing.map { (try ServiceAccountKey.generate(projectID: projectID, role: $0), $0) }, at: at,
            onlyIfNone: true)
        let version = try await store.signingKeysVersion()
        let keys = try await store.signingKeys()
        let signing = signingKeys(of: keys, projectID: projectID)
        let base = try RoleSigners(keys: signing, keyless: options.keyless, options: options)
        let retirement = KeyRetirement(options)
        let ring = SigningKeyRing(
            projectID: projectID, store: store, folder: folder, keyless: keyless, options: options, logger: logger,
            baseSigners: base,
            snapshot: try Self.snapshot(
                of: keys, version: version, signing: signing, signers: base, at: at, retirement: retirement))
        ring.writeFolder(keys, signing: signing)
        return ring
    }

    private init(
        projectID: String, store: TokenServerStore, folder: KeyFolder, keyless: Set<FleetEngineRole>,
        options: TokenServerOptions, logger: Logger,
        baseSigners: RoleSigners, snapshot: Snapshot
    ) {
        self.projectID = projectID
        self.store = store
        self.folder = folder
        self.keyless = keyless
        self.retirement = KeyRetirement(options)
        self.now = options.now
        self.logger = logger
        self.baseSigners = baseSigners
        self.snapshot = Locked(snapshot)
    }

    // MARK: What the server reads

    /// The signers of each account role, with the keys that sign now.
    var signers: RoleSigners { snapshot.withLock { $0.signers } }

    /// The key that signs each role's tokens now.
    package var signingKeys: SigningKeys { snapshot.withLock { $0.signing } }

    /// The accounts whose tokens a verifier should accept now, each with its published keys.
    package var publishedAccounts: [TrustedServiceAccount] { snapshot.withLock { $0.published } }

    /// `/.well-known/jwks.json`: every published key with its account and role.
    var jsonWebKeySet: Data { snapshot.withLock { $0.jsonWebKeySet } }

    /// Every key of the ring with its state, by role and then oldest first.
    package var statuses: [SigningKeyStatus] {
        let (keys, signing) = snapshot.withLock { ($0.keys, $0.signing) }
        let at = epochSeconds
        return keys.map { key in
            let signs = signing.key(for: key.role)?.privateKeyID == key.keyID
            return SigningKeyStatus(
                key, signing: signs, retiresAt: retirement.time(of: key), published: retirement.isPublished(key, at: at)
            )
        }
    }

    /// Calls `listener` with the published accounts now, and again whenever they change,
    /// before a new key signs (the local Fleet Engine beside the server trusts through it).
    package func onPublish(_ listener: @escaping @Sendable ([TrustedServiceAccount]) -> Void) {
        listeners.withLock { $0.append(listener) }
        listener(publishedAccounts)
    }

    // MARK: Changes

    /// Makes a new key for `role` (of the same account as its key now), which is published and
    /// signs from this moment; the key it replaces stays published until its tokens expired.
    ///
    /// - Throws: ``KeyRotationRefused`` for a role that signs through IAM; the store's errors.
    @discardableResult
    package func rotate(_ role: FleetEngineRole) async throws -> SigningKeyStatus {
        guard !keyless.contains(role) else { throw KeyRotationRefused.keyless(role) }
        return try await changes.run {
            let key = try await Self.rotate(role, in: self.store, at: self.epochSeconds)
            try await self.read(force: true)
            guard let added = self.statuses.first(where: { $0.kid == key.keyID }) else {
                throw StoreCorruption("the new signing key \(key.keyID) is not in the database after it was added")
            }
            self.logger.notice("signing key rotated", metadata: ["role": "\(role.shortName)", "kid": "\(key.keyID)"])
            return added
        }
    }

    /// ``rotate(_:)`` on the database alone (`fleetauth keys rotate`): the servers on it take
    /// the new key within ``followInterval``, and write it to their `keys/`.
    package static func rotate(_ role: FleetEngineRole, in store: TokenServerStore, at now: Int64) async throws
        -> StoredSigningKey
    {
        let keys = try await store.signingKeys()
        guard let current = signingKeys(of: keys, projectID: "").key(for: role) else {
            throw KeyRotationRefused.noKey(role)
        }
        let made = try ServiceAccountKey.generate(projectID: current.projectID, role: role)
        let key = ServiceAccountKey(
            projectID: current.projectID, privateKeyID: made.privateKeyID, clientEmail: current.clientEmail,
            clientID: current.clientID,
            privateKey: made.privateKey)
        try await store.addSigningKey(key, for: role, at: now)
        return StoredSigningKey(role: role, key: key, addedAt: now, supersededAt: nil, retiredAt: nil)
    }

    /// Adds the key files put into `keys/` that the ring does not know, each then signing its
    /// role's tokens (SIGHUP). Files that cannot be used are logged and left.
    package func importKeyFiles() async {
        try? await changes.run {
            let scanned = self.folder.scan()
            for problem in scanned.problems {
                self.logger.error("key file not used", metadata: ["problem": "\(problem)"])
            }
            do {
                let added = try await Self.add(
                    scanned.found, to: self.store, projectID: self.projectID, keyless: self.keyless,
                    at: self.epochSeconds, logger: self.logger)
                try await self.read(force: added > 0)
            } catch {
                self.logger.error("key files could not be added", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Reads the ring again when it changed and retires the keys that are due; errors are
    /// logged once per run of them and the keys at hand keep signing.
    func follow() async {
        try? await changes.run {
            do {
                try await self.read(force: false)
                if self.failing.withLock({ $0 }) {
                    self.failing.withLock { $0 = false }
                    self.logger.notice("signing keys read again")
                }
            } catch {
                if !self.failing.withLock({ $0 }) {
                    self.failing.withLock { $0 = true }
                    self.logger.warning(
                        "signing keys could not be read; the keys at hand keep signing", metadata: ["error": "\(error)"]
                    )
                }
            }
        }
    }

    /// Follows the ring in the background, every ``followInterval``, until ``stopFollowing()``.
    package func startFollowing() {
        follower.withLock { task in
            guard task == nil else { return }
            task = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.followInterval)
                    guard let self, !Task.isCancelled else { return }
                    await self.follow()
                }
            }
        }
    }

    /// Stops following the ring.
    package func stopFollowing() {
        follower.withLock { $0?.cancel() }
    }

    // MARK: Inside

    private var epochSeconds: Int64 { Int64(now().timeIntervalSince1970.rounded(.down)) }

    /// Retires the keys that are due, then, when the ring changed (or `force`), reads it and
    /// puts it in use: listeners hear of the keys published, then the new keys sign.
    private func read(force: Bool) async throws {
        let at = epochSeconds
        let (keys, version) = snapshot.withLock { ($0.keys, $0.version) }
        for key in keys where key.retiredAt == nil && !retirement.isPublished(key, at: at) {
            try await store.retireSigningKey(key.keyID, at: at)
            logger.notice(
                "signing key retired: its last token has expired",
                metadata: ["role": "\(key.role.shortName)", "kid": "\(key.keyID)"])
        }
        let newVersion = try await store.signingKeysVersion()
        guard force || newVersion != version else { return }
        let fresh = try await store.signingKeys(reusing: keys)
        let signing = Self.signingKeys(of: fresh, projectID: projectID)
        let next = try Self.snapshot(
            of: fresh, version: newVersion, signing: signing, signers: try baseSigners.signing(with: signing), at: at,
            retirement: retirement)
        for listener in listeners.withLock({ $0 }) { listener(next.published) }
        let before = snapshot.withLock { current in
            defer { current = next }
            return current.signing
        }
        for (role, key) in signing.keys where before.key(for: role)?.privateKeyID != key.privateKeyID {
            logger.notice("signing key in use", metadata: ["role": "\(role.shortName)", "kid": "\(key.privateKeyID)"])
        }
        writeFolder(fresh, signing: signing)
    }

    private func writeFolder(_ keys: [StoredSigningKey], signing: SigningKeys) {
        let signingIDs = Set(signing.keys.values.map(\.privateKeyID))
        for problem in folder.follow(keys, signing: signingIDs) {
            logger.warning("keys folder not updated; the database holds the keys", metadata: ["problem": "\(problem)"])
        }
    }

    /// The key that signs each role's tokens: its newest key neither replaced nor retired.
    private static func signingKeys(of keys: [StoredSigningKey], projectID: String) -> SigningKeys {
        var signing: [FleetEngineRole: StoredSigningKey] = [:]
        for key in keys where key.retiredAt == nil && key.supersededAt == nil {
            if let other = signing[key.role], other.addedAt > key.addedAt { continue }
            signing[key.role] = key
        }
        return SigningKeys(projectID: projectID, keys: signing.mapValues(\.key))
    }

    private static func snapshot(
        of keys: [StoredSigningKey], version: String, signing: SigningKeys, signers: RoleSigners, at: Int64,
        retirement: KeyRetirement
    ) throws -> Snapshot {
        let published = keys.filter { retirement.isPublished($0, at: at) }
        var accounts: [String: TrustedServiceAccount] = [:]
        for key in published {
            var publicKeys = accounts[key.key.clientEmail]?.publicKeys ?? [:]
            publicKeys[key.keyID] = key.key.publicKey
            accounts[key.key.clientEmail] = TrustedServiceAccount(
                email: key.key.clientEmail, role: key.role, publicKeys: publicKeys)
        }
        let jsonWebKeySet = try JSONWebKeySet(publishing: published.map { (key: $0.key, role: $0.role) })
            .jsonRepresentation()
        return Snapshot(
            version: version, keys: keys, signing: signing, published: accounts.values.sorted { $0.email < $1.email },
            jsonWebKeySet: jsonWebKeySet,
            signers: signers)
    }

    /// Adds each key file of `found` the store does not know (not those of roles signing
    /// through IAM), a role's labelled files before its `<role>.json`, which so signs; returns
    /// how many were added. A key of another project is never added (replicas never mix
    /// projects): it is thrown at start, and logged (to `logger`) on SIGHUP.
    @discardableResult
    private static func add(
        _ found: [KeyFolder.Found], to store: TokenServerStore, projectID: String, keyless: Set<FleetEngineRole>,
        at: Int64, logger: Logger? = nil
    ) async throws -> Int {
        let known = try await store.signingKeyIDs()
        let ordered = found.sorted {
            ($0.path.hasSuffix("/\($0.role.shortName).json") ? 1 : 0)
                < ($1.path.hasSuffix("/\($1.role.shortName).json") ? 1 : 0)
        }
        var adding: [(key: ServiceAccountKey, role: FleetEngineRole, path: String)] = []
        for file in ordered where !keyless.contains(file.role) && !known.contains(file.keyID) {
            let key: ServiceAccountKey
            do {
                key = try file.key()
                guard key.projectID == projectID else {
                    throw KeyFileError(
                        file: file.path,
                        problem:
                            "belongs to project \"\(key.projectID)\", not \"\(projectID)\" (pass --project \(key.projectID), or use another data dir)"
                    )
                }
            } catch {
                guard let logger else { throw error }
                logger.error("key file not used", metadata: ["problem": "\(error)"])
                continue
            }
            adding.append((key, file.role, file.path))
        }
        let added = try await store.addSigningKeys(adding.map { ($0.key, $0.role) }, at: at)
        for file in adding {
            logger?.notice(
                "key file added: it signs from now",
                metadata: ["file": "\(file.path)", "role": "\(file.role.shortName)", "kid": "\(file.key.privateKeyID)"])
        }
        return added
    }
}
