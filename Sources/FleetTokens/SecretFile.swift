import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes files that hold secrets: mode 0600 from the first byte, written to a temporary
/// file in the same folder and renamed into place, so a reader never sees half a file.
package enum SecretFile {
    /// Writes `contents` to `path` (mode 0600). Refuses an existing file unless `overwrite`.
    package static func write(_ contents: Data, to path: String, overwrite: Bool) throws(KeyFileError) {
        if !overwrite, FileManager.default.fileExists(atPath: path) {
            throw KeyFileError(file: path, problem: "already exists (pass --force to replace it)")
        }
        let temporary = path + ".tmp-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw KeyFileError(file: path, problem: "cannot be created (\(String(cString: strerror(errno))))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var written = true
        do {
            try handle.write(contentsOf: contents)
            try handle.synchronize()
        } catch {
            written = false
        }
        try? handle.close()
        guard written else {
            unlink(temporary)
            throw KeyFileError(file: path, problem: "could not be written completely")
        }
        if !overwrite, link(temporary, path) != 0 {
            let code = errno
            unlink(temporary)
            throw KeyFileError(
                file: path,
                problem: code == EEXIST
                    ? "already exists (pass --force to replace it)"
                    : "cannot be created (\(String(cString: strerror(code))))")
        } else if overwrite, rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw KeyFileError(file: path, problem: "cannot be replaced (\(reason))")
        }
        unlink(temporary)
    }
}
