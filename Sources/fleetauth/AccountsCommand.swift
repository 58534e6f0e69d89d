import ArgumentParser
import Foundation
import TokenServer

/// `fleetauth accounts`: the token server's accounts, on its data dir or database.
struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts",
        abstract: "Create, delete and list the token server's accounts.",
        subcommands: [Create.self, Delete.self, List.self]
    )

    /// `fleetauth accounts create USERNAME --role ROLE`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an account; the password is read from standard input (one line) or asked for."
        )

        @OptionGroup var data: TokenServerDataOptions

        @Argument(help: "The login name.")
        var username: String

        @Option(help: "driver, consumer, delivery-driver, delivery-consumer or fleet-reader.")
        var role: String

        @Option(help: "bcrypt cost (4 to 31).")
        var bcryptCost = 12

        func run() async throws {
            let password = try PasswordInput.read(prompt: "password for \(username): ")
            let account = try await data.withStore { store in
                try await AccountAdministration(store: store, hasher: PasswordHasher(cost: UInt8(min(max(bcryptCost, 4), 31))))
                    .createAccount(username: username, password: password, roleName: role)
            }
            print("created \(account.role) account \(account.username)")
        }
    }

    /// `fleetauth accounts delete USERNAME`.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an account with its assignments and sessions (at once).")

        @OptionGroup var data: TokenServerDataOptions

        @Argument(help: "The login name.")
        var username: String

        func run() async throws {
            try await data.withStore { store in
                try await AccountAdministration(store: store, hasher: PasswordHasher(cost: 4)).deleteAccount(username: username)
            }
            print("deleted account \(username)")
        }
    }

    /// `fleetauth accounts list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List accounts and what each is assigned to.")

        @OptionGroup var data: TokenServerDataOptions

        @Flag(help: "Print JSON.")
        var json = false

        struct Entry: Encodable {
            let username: String
            let role: String
            let assignments: [String]
        }

        func run() async throws {
            let entries = try await data.withStore { store in
                let assignments = Dictionary(grouping: try await store.assignments(), by: \.username)
                return try await store.accounts().map { account in
                    Entry(username: account.username, role: account.role.rawValue, assignments: (assignments[account.username] ?? []).map { "\($0.kind.rawValue)/\($0.resourceID)" })
                }
            }
            if json { return try JSONOutput.print(entries) }
            if entries.isEmpty { print("no accounts") }
            for entry in entries {
                let assigned = entry.assignments.isEmpty ? "" : "  " + entry.assignments.joined(separator: ", ")
                print(entry.username.padding(toLength: max(16, entry.username.count), withPad: " ", startingAt: 0) + " " + entry.role.padding(toLength: 18, withPad: " ", startingAt: 0) + assigned)
            }
        }
    }
}

/// Reads a password without it appearing on the command line: one line of standard input,
/// or, on a terminal, a prompt that does not echo.
enum PasswordInput {
    static func read(prompt: String) throws -> String {
        let password: String?
        if isatty(STDIN_FILENO) != 0 {
            password = getpass(prompt).map { String(cString: $0) }
        } else {
            password = readLine(strippingNewline: true)
        }
        guard let password, !password.isEmpty else { throw CommandFailure("no password given on standard input") }
        return password
    }
}
