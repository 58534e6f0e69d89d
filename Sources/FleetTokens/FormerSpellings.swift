/// The names earlier versions spelled otherwise, in one place: the command line, the token
/// server's API and its store still take them, and say the current spelling.
package enum FormerSpellings {
    /// Former spelling → current spelling.
    package static let all: [String: String] = [
        "trusted-delivery-driver": "delivery-trusted-driver",
        "untrusted-delivery-driver": "delivery-untrusted-driver",
    ]

    /// `name`'s current spelling: itself, unless it is a former one.
    package static func current(of name: String) -> String { all[name] ?? name }
}
