import FleetAuthLocking
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One server process's exclusive claim on its data directory: an `flock` on `DIR/NAME.lock`,
/// which holds the owner's process id. The kernel drops the lock when the process ends, however
/// it ends, so a killed server leaves nothing that blocks its restart.
package final class DataDirectoryLock: Sendable {
    private let descriptor: Locked<Int32?>

    private init(descriptor: Int32) {
        self.descriptor = Locked(descriptor)
    }

    /// Takes the lock `name` in `directory` (created if missing) for `server`, e.g.
    /// "local Fleet Engine".
    ///
    /// - Throws: ``DataDirectoryLockError`` naming the process that holds it, or why the lock
    ///   file cannot be used.
    package static func acquire(directory: String, name: String, server: String) throws(DataDirectoryLockError)
        -> DataDirectoryLock
    {
        let path = URL(fileURLWithPath: directory).appendingPathComponent("\(name).lock").path
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw DataDirectoryLockError("\(directory) cannot be created as a folder")
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw DataDirectoryLockError("\(path) cannot be opened (\(String(cString: strerror(errno))))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(
                in: .whitespacesAndNewlines)
            close(descriptor)
            let who = holder.flatMap { $0.isEmpty ? nil : "process \($0)" } ?? "another process"
            throw DataDirectoryLockError(
                "\(directory) is in use by another \(server) (\(who), holding \(path)); stop it first, or give this one another --data-dir"
            )
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = pid.withCString { write(descriptor, $0, strlen($0)) }
        return DataDirectoryLock(descriptor: descriptor)
    }

    /// Gives the directory up (closing the lock file releases the lock); later calls do nothing.
    package func release() {
        descriptor.withLock { descriptor in
            if let open = descriptor { close(open) }
            descriptor = nil
        }
    }

    deinit {
        release()
    }
}

/// Why a data directory could not be claimed.
package struct DataDirectoryLockError: Error, Sendable, CustomStringConvertible {
    /// What happened, with the holder's process id when it is known.
    package let description: String

    init(_ description: String) {
        self.description = description
    }
}
