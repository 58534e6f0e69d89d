import BrowserDriver
import Foundation
import TestSupport

/// What the tests of both consoles read of a page: whether it has loaded (the kit marks
/// `body[data-ready]`), an element's attribute, how many elements match.
extension WebDriverSession {
    /// Waits until the console page has loaded its data once since it was opened.
    func waitUntilConsoleReady() async throws {
        try await waitUntil("the console has loaded") {
            try await execute("return document.body.dataset.ready ?? null") == #""true""#
        }
    }

    /// `selector`'s attribute `name`, or `nil` when nothing matches.
    func attribute(_ selector: String, _ name: String) async throws -> String? {
        let value = try await execute(
            "const e = document.querySelector(arguments[0]); return e ? e.getAttribute(arguments[1]) : null;",
            [selector, name])
        return try JSONDecoder().decode(String?.self, from: Data(value.utf8))
    }

    /// How many elements `selector` finds.
    func count(_ selector: String) async throws -> Int {
        Int(try await execute("return document.querySelectorAll(arguments[0]).length", [selector])) ?? -1
    }
}
