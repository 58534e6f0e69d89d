import ArgumentParser
import CommandSupport
import FleetTokens
import Foundation
import TokenServer

/// `fleetauth keys`: the token server's signing keys, on its data dir or database.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "List and rotate the token server's signing keys.",
        subcommands: [List.self, Rotate.self]
    )

    /// `fleetauth keys list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show every signing key: the one each role signs with, those replaced, those retired.")

        @OptionGroup var data: TokenServerDataOptions

        func run() async throws {
            let keys = try await data.withStore { try await $0.signingKeys() }
            let header = ["ROLE", "KID", "ACCOUNT", "STATE", "SIGNS FROM", "REPLACED", "RETIRED"]
            TextTable.print(
                [header]
                    + keys.map { key in
                        let state = key.retiredAt != nil ? "retired" : key.supersededAt != nil ? "replaced" : "signing"
                        return [
                            key.role.shortName, key.keyID, key.key.clientEmail, state,
                            TimeText.utc(epochSeconds: key.addedAt),
                            key.supersededAt.map { TimeText.utc(epochSeconds: $0) } ?? "",
                            key.retiredAt.map { TimeText.utc(epochSeconds: $0) } ?? "",
                        ]
                    })
        }
    }

    /// `fleetauth keys rotate ROLE [--print-upload]`.
    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Make a new signing key for a role; it signs from now, and the key it replaces stays published until its tokens expired.",
            discussion: """
                Works on the database, whether the token server runs or not: running servers (every \
                replica) sign with the new key within a second, and write it to their keys/ folder. \
                Against Google's Fleet Engine, Google must know a key's public half before it signs: \
                --print-upload makes the key without putting it to use, and prints how to upload it \
                and then put it into keys/ (SIGHUP adds it). A key made in Google's IAM (gcloud iam \
                service-accounts keys create) goes into keys/ the same way.
                """
        )

        @OptionGroup var data: TokenServerDataOptions

        @Argument(help: "The role whose key is replaced (driver, consumer, server, ...).")
        var role: FleetEngineRole

        @Flag(
            help:
                "Make the key file without putting it to use, and print the commands that upload it to IAM and then add it."
        )
        var printUpload = false

        @Option(
            help: "With --print-upload: where to write the new key file (mode 0600); defaults to ./<role>.<kid>.json.")
        var out: String?

        func validate() throws {
            if out != nil, !printUpload { throw ValidationError("--out goes with --print-upload") }
        }

        func run() async throws {
            let now = Int64(Date().timeIntervalSince1970)
            if printUpload { return try await makeForUpload() }
            let key = try await data.withStore { try await SigningKeyRing.rotate(role, in: $0, at: now) }
            print("\(role.shortName) signs with key \(key.keyID) from now (account \(key.key.clientEmail))")
            print("the key it replaces stays published until its last token has expired, then moves to keys/retired/")
        }

        /// Makes a key of the role's account, writes it to a file outside the ring, and prints
        /// how to upload its public half and add it.
        private func makeForUpload() async throws {
            let current = try await data.withStore { store in
                try await store.signingKeys().last { $0.role == role && $0.retiredAt == nil && $0.supersededAt == nil }
            }
            guard let current else {
                throw CommandFailure("\(role.shortName) has no signing key in this database to replace")
            }
            let made = try ServiceAccountKey.generate(projectID: current.key.projectID, role: role)
            let key = ServiceAccountKey(
                projectID: made.projectID, privateKeyID: made.privateKeyID, clientEmail: current.key.clientEmail,
                clientID: current.key.clientID,
                privateKey: made.privateKey)
            let file = out ?? "\(role.shortName).\(key.privateKeyID).json"
            try key.write(to: file, overwrite: false)
            let keys = data.dataDir.map { "\($0)/keys" } ?? "DATA_DIR/keys"
            let email = key.clientEmail
            print(
                """
                wrote \(file) (mode 0600): a new key of \(email), not in use yet.
                Upload its public half, then add it under the key id IAM gives it:

                  jq -r .private_key \(file) > new-key.pem
                  openssl req -x509 -new -key new-key.pem -days 3650 -subj "/CN=\(email)" -out new-key.crt
                  KID=$(gcloud iam service-accounts keys upload new-key.crt --iam-account=\(email) --format='value(name.basename())')
                  jq --arg kid "$KID" '.private_key_id = $kid' \(file) > \(keys)/\(role.shortName).$KID.json
                  chmod 600 \(keys)/\(role.shortName).$KID.json && rm new-key.pem new-key.crt \(file)
                  kill -HUP $(pgrep -f 'fleetauth token-server')   # or restart; every replica then signs with it

                """)
        }
    }
}
