import FleetAuthCodecs
import FleetAuthServerHTTP
import Foundation
import FuzzSupport
import TokenServer

/// The token server's login body (`POST /v1/sessions`) through ``StrictJSON``:
/// - a body it accepts is an object with exactly `username` and `password`, strings, as
///   Foundation reads them, and the same body written again with ``JSONString`` reads the same;
/// - a body it refuses gets a message that quotes none of the body's values (a password must
///   never reach an error message or a log line), beyond the member names it refuses.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLoginBody(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let body = Data(UnsafeRawBufferPointer(start: start, count: count))
    do {
        let login = try StrictJSON.decode(LoginRequest.self, from: body)
        let object = FoundationJSON.object(of: body)
        require(object?.count == 2, "an accepted login body is not an object of two members by Foundation")
        require(FoundationJSON.string(object?["username"]) == login.username, "username differs from Foundation's")
        require(FoundationJSON.string(object?["password"]) == login.password, "password differs from Foundation's")
        _ = AccountRules.problem(withUsername: login.username)

        var rewritten = Array(#"{"username":"#.utf8)
        JSONString.append(login.username, to: &rewritten)
        rewritten += Array(#","password":"#.utf8)
        JSONString.append(login.password, to: &rewritten)
        rewritten.append(UInt8(ascii: "}"))
        let again = try? StrictJSON.decode(LoginRequest.self, from: Data(rewritten))
        require(
            again?.username == login.username && again?.password == login.password,
            "the login body written again reads differently")
    } catch {
        let parsed = FoundationJSON.value(of: body)
        // The refusal may name an unknown member, in quotes; a value may be part of that name,
        // quotes included. What is left once the quoted names are taken out quotes no value.
        var rest = error.message
        for key in strings(in: parsed, keys: true) {
            rest = rest.replacing("\"" + key + "\"", with: "")
        }
        for value in strings(in: parsed, keys: false) where value.count >= 12 {
            require(!quotes(rest, value), "the refusal quotes a value of the body")
        }
    }
    return 0
}

/// Every string value inside `value`, or with `keys`, every member name (the refusal names
/// unknown members, so a value that is also a name, or part of one, may appear in it).
private func strings(in value: Any?, keys: Bool) -> [String] {
    switch value {
    case let text as String: keys ? [] : [text]
    case let array as [Any]: array.flatMap { strings(in: $0, keys: keys) }
    case let object as [String: Any]:
        (keys ? Array(object.keys) : []) + object.values.flatMap { strings(in: $0, keys: keys) }
    default: []
    }
}
