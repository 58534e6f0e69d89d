import CommandSupport
import Foundation

/// Files of the repository's `Benchmarks/` folder (competitors, load scripts) that a bench
/// command runs: found from the current directory, or from the built tool's place in the
/// repository (`.build/<configuration>/fleetauth-bench`).
enum BenchmarkFiles {
    /// The path of `Benchmarks/<relativePath>`, or a failure that says where it was looked for.
    static func path(_ relativePath: String) throws -> String {
        let candidates = searchRoots().map {
            $0.appendingPathComponent("Benchmarks").appendingPathComponent(relativePath).path
        }
        if let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) { return found }
        throw CommandFailure(
            "cannot find Benchmarks/\(relativePath) (looked in \(candidates.joined(separator: ", "))); run from the repository's root"
        )
    }

    /// The current directory, then the folders above the executable's (the repository root
    /// lies three levels above `.build/<triple>/release/fleetauth-bench`).
    private static func searchRoots() -> [URL] {
        var roots = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        var folder = URL(fileURLWithPath: BenchExecutables.bench).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            folder = folder.deletingLastPathComponent()
            roots.append(folder)
        }
        return roots
    }
}

/// The executables a bench starts as child processes.
enum BenchExecutables {
    /// The running `fleetauth-bench`, to start its own subcommands.
    static var bench: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// The `fleetauth` built beside it (`swift build -c release` builds both).
    static var fleetAuth: String {
        URL(fileURLWithPath: bench).deletingLastPathComponent().appendingPathComponent("fleetauth").path
    }
}
