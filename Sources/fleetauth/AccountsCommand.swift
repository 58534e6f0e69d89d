import ArgumentParser
import CommandSupport
import FleetTokens
import Foundation
import TokenServer

/// `fleetauth accounts`: the token server's accounts, on its data dir or database.
struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts",
        abstract: "Create, delete and list the token server's accounts.",
        subcommands: [Create.self, Delete.self, List.self]
    )

    /// `fleetauth accounts create USERNAME --role ROLE [--identity-issuer URL --identity-subject SUB]`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an account; the password is read from standard input (one line) or asked for.",
            discussion: """
                With --identity-issuer and --identity-subject the account is linked to a user of the app's \
                OpenID Connect sign-in (the ID token's iss and sub) and has no password, unless \
                --with-password asks for one too.
                """
        )

        @OptionGroup var data: TokenServerDataOptions

        @Argument(help: "The login name.")
        var username: String

        @Option(help: "One of \(AccountRole.allNames).")
        var role: String

        @Option(help: "The OpenID Connect issuer of the linked user, exactly as its ID tokens' iss spells it.")
        var identityIssuer: String?

        @Option(help: "The linked user's id at that issuer, its ID tokens' sub (for Firebase, the uid).")
        var identitySubject: String?

        @Flag(help: "With an identity: also read a password, so that the account can log in both ways.")
        var withPassword = false

        @Option(help: "bcrypt cost (4 to 31).")
        var bcryptCost = 12

        func validate() throws {
            guard (identityIssuer == nil) == (identitySubject == nil) else {
                throw ValidationError("give both --identity-issuer and --identity-subject, or neither")
            }
            guard !withPassword || identityIssuer != nil else {
                throw ValidationError("--with-password goes with --identity-issuer and --identity-subject")
            }
        }

        func run() async throws {
            if let current = FormerSpellings.all[role] {
                noteFormerSpelling(option: "--role", former: role, current: current)
            }
            let identity = identityIssuer.flatMap { issuer in
                identitySubject.map { LinkedIdentity(issuer: issuer, subject: $0) }
            }
            let password =
                identity == nil || withPassword ? try PasswordInput.read(prompt: "password for \(username): ") : nil
            let account = try await data.withStore { store in
                try await AccountAdministration(
                    store: store, hasher: PasswordHasher(cost: UInt8(min(max(bcryptCost, 4), 31)))
                )
                .createAccount(username: username, password: password, roleName: role, identity: identity)
            }
            print(
                "created \(account.role) account \(account.username)"
                    + (account.identity.map { " linked to \($0)" } ?? ""))
        }
    }

    /// `fleetauth accounts delete USERNAME`.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete an account with its assignments and sessions (at once).")

        @OptionGroup var data: TokenServerDataOptions

        @Argument(help: "The login name.")
        var username: String

        func run() async throws {
            try await data.withStore { store in
                try await AccountAdministration(store: store, hasher: PasswordHasher(cost: 4)).deleteAccount(
                    username: username)
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
            let identity: LinkedIdentity?
            let assignments: [String]
        }

        func run() async throws {
            let entries = try await data.withStore { store in
                let assignments = Dictionary(grouping: try await store.assignments(), by: \.username)
                return try await store.accounts().map { account in
                    Entry(
                        username: account.username, role: account.role.rawValue, identity: account.identity,
                        assignments: (assignments[account.username] ?? []).map {
                            "\($0.kind.rawValue)/\($0.resourceID)"
                        })
                }
            }
            if json { return try JSONOutput.print(entries) }
            if entries.isEmpty { print("no accounts") }
            // Columns as wide as their widest entry, so that no name or role is cut.
            let nameWidth = entries.map(\.username.count).max() ?? 0, roleWidth = entries.map(\.role.count).max() ?? 0
            for entry in entries {
                let linked = entry.identity.map { "  (\($0))" } ?? ""
                let assigned =
                    (entry.assignments.isEmpty ? "" : "  " + entry.assignments.joined(separator: ", ")) + linked
                print(
                    entry.username.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + " "
                        + entry.role.padding(toLength: roleWidth, withPad: " ", startingAt: 0) + assigned)
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
