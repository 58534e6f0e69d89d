#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The local Fleet Engine's claim on its data directory: an exclusive `flock` on
/// `DIR/fleet-engine.lock`, held while the engine runs and released by the system when the
/// process ends however it ends (`kill -9` included). A second engine on the same directory
/// would load the same rows and then split them, each acknowledging writes the other never
/// sees; it refuses to start instead.
final class DataDirectoryLock {
    /// The lock file inside the data directory.
    static let fileName = "fleet-engine.lock"

    private let descriptor: Int32

    /// Takes the lock of `dataDirectory` (which must exist), or throws naming the directory
    /// when another process holds it.
    init(dataDirectory: String) throws {
        let path = "\(dataDirectory)/\(Self.fileName)"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CommandFailure("cannot open \(path) to lock the data directory (errno \(errno))") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            close(descriptor)
            throw CommandFailure(busy
                ? "another local Fleet Engine is running on the data directory \(dataDirectory) (it holds \(path)); stop it, or give this one another --data-dir"
                : "cannot lock \(path) (errno \(errno))")
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
