import FleetAuthBuildInfo

/// The version and commit of this binary, as `fleetauth --version` prints them.
enum BuildVersion {
    /// The release's version (the VERSION file at the package's root).
    static let number = String(cString: fleetauth_build_version())

    /// The commit the binary was built from; `nil` for a development build, which does not say.
    static let commit: String? = {
        let commit = String(cString: fleetauth_build_commit())
        return commit.isEmpty ? nil : commit
    }()

    /// `0.9.0 (commit 1a2b3c4…)`, or `0.9.0 (development build, commit not recorded)`.
    static var description: String {
        "\(number) (\(commit.map { "commit \($0)" } ?? "development build, commit not recorded"))"
    }
}
