import FleetTokens
import Foundation

/// The data directory's `keys/` folder: where a key made elsewhere arrives (a key file from
/// Google's IAM, put there before SIGHUP), and where the ring is written out for people and
/// tools to read. `<role>.json` is the key that signs the role's tokens, `<role>.<kid>.json`
/// an earlier key still published, `retired/<role>.<kid>.json` a key no longer published.
/// The database holds the ring (``SigningKeyRing``); this folder follows it.
struct KeyFolder: Sendable {
    /// The folder.
    let path: String

    /// A key file found in the folder, by its name and key id (its key is read only when used).
    struct Found: Sendable {
        let path: String
        let role: FleetEngineRole
        let keyID: String

        /// The key the file holds.
        func key() throws(KeyFileError) -> ServiceAccountKey {
            try ServiceAccountKey(contentsOf: path)
        }
    }

    /// The subfolder of retired keys.
    var retiredPath: String { path + "/retired" }

    /// Makes the folder (mode 0700) if it is missing.
    func create() throws(KeyFileError) {
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw KeyFileError(file: path, problem: "cannot be created as a folder")
        }
    }

    /// Every key file directly in the folder, named `<role>.json` or `<role>.<label>.json`,
    /// and the problems of the `.json` files that are not: only their key ids are read, since
    /// reading an RSA key costs milliseconds.
    func scan() -> (found: [Found], problems: [KeyFileError]) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter {
            $0.hasSuffix(".json")
        }.sorted()
        var found: [Found] = [], problems: [KeyFileError] = []
        for name in names {
            let file = path + "/" + name
            guard let role = Self.role(named: name) else {
                problems.append(
                    KeyFileError(
                        file: file,
                        problem:
                            "is not named <role>.json or <role>.<label>.json (e.g. driver.json, driver.2026-12.json)"))
                continue
            }
            guard let keyID = Self.keyID(ofFileAt: file) else {
                problems.append(
                    KeyFileError(file: file, problem: "is not a service-account key file (no private_key_id)"))
                continue
            }
            found.append(Found(path: file, role: role, keyID: keyID))
        }
        return (found, problems)
    }

    /// The `private_key_id` of the key file at `path`, read without its key.
    private static func keyID(ofFileAt path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object["private_key_id"] as? String
    }

    /// The role a key file's name gives: the part before its first dot.
    static func role(named fileName: String) -> FleetEngineRole? {
        guard let dot = fileName.firstIndex(of: ".") else { return nil }
        return FleetEngineRole.allCases.first { $0.shortName == fileName[..<dot] }
    }

    /// Where a key of the ring belongs: `<role>.json` while it signs, `<role>.<kid>.json` while
    /// published, `retired/<role>.<kid>.json` after.
    func place(of key: StoredSigningKey, signing: Bool) -> String {
        if key.retiredAt != nil { return "\(retiredPath)/\(key.role.shortName).\(key.keyID).json" }
        return signing ? "\(path)/\(key.role.shortName).json" : "\(path)/\(key.role.shortName).\(key.keyID).json"
    }

    /// Makes the folder follow the ring: each key's file moved to its place (written from the
    /// database where no file holds it), and any other copy of it removed. Keys retired go
    /// first and signing keys last, so a `<role>.json` holding an earlier key has moved away
    /// before the new one takes its place. Files of keys the ring does not know are left for
    /// ``scan()``. Returns the problems met (another replica sharing the folder may have moved
    /// a file first: the next change tries again).
    func follow(_ keys: [StoredSigningKey], signing: Set<String>) -> [KeyFileError] {
        var problems: [KeyFileError] = []
        if keys.contains(where: { $0.retiredAt != nil }) {
            do {
                try FileManager.default.createDirectory(
                    atPath: retiredPath, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                return [KeyFileError(file: retiredPath, problem: "cannot be created as a folder")]
            }
        }
        var copies: [String: [String]] = [:]
        for file in scan().found { copies[file.keyID, default: []].append(file.path) }
        let ordered = keys.sorted { rank($0, signing) < rank($1, signing) }
        for key in ordered {
            let place = place(of: key, signing: signing.contains(key.keyID))
            var others = (copies[key.keyID] ?? []).filter { $0 != place }
            if !Self.holds(place, key.keyID) {
                if let source = others.first, rename(source, place) == 0 {
                    others.removeFirst()
                } else {
                    do {
                        try key.key.write(to: place, overwrite: true)
                    } catch {
                        problems.append(error)
                        continue
                    }
                }
            }
            for copy in others { unlink(copy) }
        }
        return problems
    }

    /// Retired first, then published, then signing.
    private func rank(_ key: StoredSigningKey, _ signing: Set<String>) -> Int {
        key.retiredAt != nil ? 0 : signing.contains(key.keyID) ? 2 : 1
    }

    /// Whether the file at `path` is the key `keyID`.
    private static func holds(_ path: String, _ keyID: String) -> Bool {
        Self.keyID(ofFileAt: path) == keyID
    }
}
