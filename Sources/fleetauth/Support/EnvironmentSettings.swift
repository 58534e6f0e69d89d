import ArgumentParser
import Foundation

/// The server commands' options as environment variables: every option of `token-server`,
/// `fleet-engine` and `serve` can also be set as `FLEETAUTH_<OPTION>` (`--token-lifetime` is
/// `FLEETAUTH_TOKEN_LIFETIME`), and an option given on the command line wins. For the token
/// server, Cloud Run's `PORT` is the port when neither `--port` nor `FLEETAUTH_PORT` is given,
/// and the host is then `0.0.0.0`.
///
/// The options are read from ArgumentParser's own description of each command (its JSON help
/// dump), so an option added to a command needs nothing here. The settings found become
/// arguments after the command line's own, so ArgumentParser parses and checks them as it does
/// the flags; its messages then name the variable instead of the option.
struct EnvironmentSettings {
    /// The commands whose options the environment sets, as paths of command names.
    static let commandPaths: Set<[String]> = [["token-server"], ["serve"], ["fleet-engine", "run"]]

    /// What every variable's name starts with.
    static let prefix = "FLEETAUTH_"

    /// One option and the variable that sets it.
    struct Setting {
        /// The option's long name, without dashes (`token-lifetime`).
        let option: String
        /// `FLEETAUTH_TOKEN_LIFETIME`.
        let variable: String
        /// A flag (`--keyless`, `--[no-]reuse-tokens`) rather than an option with a value.
        let isFlag: Bool
        /// An option that may be given more than once: the variable holds a comma-separated list.
        let isRepeating: Bool
        /// The flag's inversion (`no-reuse-tokens`), when it has one.
        let inversion: String?
    }

    /// The command the command line names, when it is one the environment sets.
    let commandPath: [String]?
    /// Every option of that command the environment may set.
    let settings: [Setting]
    /// The command line with the environment's settings added after it.
    let arguments: [String]
    /// Whether the command line asks for the command's help (`-h`, `--help`).
    let asksForHelp: Bool
    /// The settings taken from the environment.
    let taken: [Setting]

    /// Reads `environment` for the command `commandLine` (without the program's name) names.
    init(commandLine: [String], environment: [String: String], root: any ParsableCommand.Type) throws {
        let (path, settings) = Self.command(named: commandLine, root: root)
        commandPath = path
        self.settings = settings
        asksForHelp = commandLine.prefix { $0 != "--" }.contains { $0 == "-h" || $0 == "--help" }
        guard path != nil else {
            arguments = commandLine
            taken = []
            return
        }
        var added: [String] = []
        var taken: [Setting] = []
        for setting in settings where !Self.commandLine(commandLine, gives: setting) {
            guard let value = environment[setting.variable], !value.isEmpty else { continue }
            added += try Self.arguments(for: setting, value: value)
            taken.append(setting)
        }
        if path == ["token-server"] {
            let port = Self.cloudRunPort(commandLine: commandLine, environment: environment, settings: settings)
            added += port
            // A bad PORT is refused naming PORT, as a bad FLEETAUTH_PORT names its variable.
            if !port.isEmpty {
                taken.append(
                    Setting(option: "port", variable: "PORT", isFlag: false, isRepeating: false, inversion: nil))
            }
        }
        arguments = commandLine + added
        self.taken = taken
    }

    /// `message` with each option the environment set named by its variable instead, in its
    /// first line (the error; the usage after it keeps the options' names).
    func naming(_ message: String) -> String {
        let firstLine = message.prefix { $0 != "\n" }
        let named = taken.sorted { $0.option.count > $1.option.count }.reduce(String(firstLine)) { line, setting in
            guard let option = try? Regex("--\(setting.option)(?![A-Za-z0-9-])") else { return line }
            return line.replacing(option, with: setting.variable)
        }
        return named + message.dropFirst(firstLine.count)
    }

    /// The help's last section for the command: each variable and the option it sets; `nil`
    /// for a command the environment does not set.
    var helpSection: String? {
        commandPath.map { Self.helpSection(for: settings, path: $0) }
    }

    /// The help's last section: each variable and the option it sets.
    private static func helpSection(for settings: [Setting], path: [String]) -> String {
        let width = (settings.map(\.variable.count).max() ?? 0) + 2
        var lines = ["ENVIRONMENT:", "  Each option can also be set in the environment; the command line wins."]
        lines.append("  A repeatable option takes a comma-separated list; a flag takes true or false.")
        for setting in settings {
            lines.append(
                "  " + setting.variable.padding(toLength: width, withPad: " ", startingAt: 0) + "--\(setting.option)")
        }
        if path == ["token-server"] {
            lines.append(
                "  " + "PORT".padding(toLength: width, withPad: " ", startingAt: 0)
                    + "the port when neither --port nor FLEETAUTH_PORT is given; the host is then 0.0.0.0")
        }
        return lines.joined(separator: "\n")
    }

    /// The variable's name for an option's long name.
    static func variable(for option: String) -> String {
        prefix + option.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// The settable options of the command `commandLine` starts with, and its path, when it is
    /// one of ``commandPaths``.
    static func command(named commandLine: [String], root: any ParsableCommand.Type) -> (
        path: [String]?, settings: [Setting]
    ) {
        // Every other command (mint, verify, …) starts without reading the whole tool's description.
        guard commandPaths.contains(where: { $0.first == commandLine.first }), let tree = CommandDescription.of(root)
        else { return (nil, []) }
        var node = tree
        var path: [String] = []
        for word in commandLine {
            guard let child = node.subcommands?.first(where: { $0.commandName == word }) else { break }
            node = child
            path.append(word)
        }
        if let name = node.defaultSubcommand, let child = node.subcommands?.first(where: { $0.commandName == name }) {
            node = child
            path.append(name)
        }
        guard commandPaths.contains(path) else { return (nil, []) }
        return (path, node.settings)
    }

    /// Whether the command line gives the setting's option (or its inversion) itself.
    private static func commandLine(_ commandLine: [String], gives setting: Setting) -> Bool {
        let names = [setting.option] + (setting.inversion.map { [$0] } ?? [])
        return commandLine.contains { word in
            names.contains { word == "--\($0)" || word.hasPrefix("--\($0)=") }
        }
    }

    /// The arguments a variable's value stands for; a value a flag cannot take is refused
    /// with the variable's name.
    private static func arguments(for setting: Setting, value: String) throws -> [String] {
        guard setting.isFlag else {
            let values =
                setting.isRepeating
                ? value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } : [value]
            return values.filter { !$0.isEmpty }.flatMap { ["--\(setting.option)", $0] }
        }
        switch value.lowercased() {
        case "true", "1", "yes", "on": return ["--\(setting.option)"]
        case "false", "0", "no", "off": return setting.inversion.map { ["--\($0)"] } ?? []
        default: throw ValidationError("\(setting.variable) takes true or false, not \"\(value)\"")
        }
    }

    /// `--port $PORT --host 0.0.0.0` when the platform gives `PORT` and neither the command
    /// line nor the environment gives the port (the host only when neither gives a host).
    private static func cloudRunPort(commandLine: [String], environment: [String: String], settings: [Setting])
        -> [String]
    {
        guard let port = environment["PORT"], !port.isEmpty,
            let portSetting = settings.first(where: { $0.option == "port" }),
            !Self.commandLine(commandLine, gives: portSetting), environment[portSetting.variable] == nil
        else { return [] }
        var arguments = ["--port", port]
        if let hostSetting = settings.first(where: { $0.option == "host" }),
            !Self.commandLine(commandLine, gives: hostSetting), environment[hostSetting.variable] == nil
        {
            arguments += ["--host", "0.0.0.0"]
        }
        return arguments
    }
}

/// A command as ArgumentParser describes it in its JSON help dump (`--experimental-dump-help`):
/// the parts ``EnvironmentSettings`` reads.
struct CommandDescription: Decodable {
    /// One argument of a command.
    struct Argument: Decodable {
        /// One of its names.
        struct Name: Decodable {
            let kind: String
            let name: String
        }

        let kind: String
        let names: [Name]?
        let isRepeating: Bool
    }

    private struct Dump: Decodable {
        let command: CommandDescription
    }

    let commandName: String
    let defaultSubcommand: String?
    let subcommands: [CommandDescription]?
    let arguments: [Argument]?

    /// The whole tool's commands, read from the dump ArgumentParser writes for `root`.
    static func of(_ root: any ParsableCommand.Type) -> CommandDescription? {
        let text: String
        do {
            _ = try root.parseAsRoot(["--experimental-dump-help"])
            return nil
        } catch {
            text = root.fullMessage(for: error)
        }
        return try? JSONDecoder().decode(Dump.self, from: Data(text.utf8)).command
    }

    /// The options and flags the environment may set: every one with a long name, but help.
    var settings: [EnvironmentSettings.Setting] {
        (arguments ?? []).compactMap { argument in
            guard argument.kind == "option" || argument.kind == "flag" else { return nil }
            let longNames = (argument.names ?? []).filter { $0.kind == "long" }.map(\.name)
            guard let option = longNames.first(where: { !$0.hasPrefix("no-") }) ?? longNames.first,
                !["help", "version", "experimental-dump-help"].contains(option)
            else { return nil }
            return EnvironmentSettings.Setting(
                option: option, variable: EnvironmentSettings.variable(for: option), isFlag: argument.kind == "flag",
                isRepeating: argument.isRepeating, inversion: longNames.first { $0 == "no-\(option)" })
        }
    }
}
