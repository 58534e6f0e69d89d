import Foundation
import Testing

@testable import FleetTokens

@Suite("The lean claims reader")
struct ClaimsReaderTests {
    func payload(_ json: String) throws(TokenRefusal) -> ClaimsPayload {
        try ClaimsPayload(json: Data(json.utf8))
    }

    @Test("reads every claim Fleet Engine uses and skips the rest")
    func readsClaims() throws {
        let read = try payload(
            """
            { "iss" : "a@b", "sub":"a@b", "aud":["x", "https://fleetengine.googleapis.com/"], "iat": 1800000000,
              "exp": 1.8000036e9, "extra": {"deep": [1, true, null, {"k": "v"}], "n": -0.5e-3},
              "authorization": {"vehicleid": "v1", "tripid": null, "taskids": ["t1", "t2"], "other": [] } }
            """)
        #expect(read.iss == "a@b" && read.sub == "a@b")
        #expect(read.audiences == ["x", "https://fleetengine.googleapis.com/"])
        #expect(read.iat == 1_800_000_000 && read.exp == 1_800_003_600)
        #expect(read.authorization == AuthorizationClaims(vehicleID: "v1", taskIDs: ["t1", "t2"]))
    }

    @Test("decodes escapes and surrogate pairs like Foundation does")
    func escapes() throws {
        let json = #"{"iss": "a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude97 é"}"#
        let foundation = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String])
        #expect(try payload(json).iss == foundation["iss"])
    }

    @Test(
        "agrees with Foundation on what is JSON",
        arguments: [
            #"{}"#, #" { } "#, #"{"a":1}"#, #"{"a":[1,2,{"b":null}]}"#, #"{"a":-0}"#, #"{"a":1.5E+3}"#,
            #"{"a":01}"#, #"{"a":.5}"#, #"{"a":1.}"#, #"{"a":+1}"#, #"{"a":tru}"#, #"{"a":"\x"}"#,
            #"{"a":"\u12"}"#, #"{a:1}"#, #"{"a" 1}"#, #"{"a":1}x"#, "{\"a\":\"tab\tin\"}", #"{"#, #"{"a":"\ud800"}"#,
        ])
    func differential(json: String) {
        let foundationAccepts = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) != nil
        let weAccept: Bool
        do {
            _ = try payload(json)
            weAccept = true
        } catch {
            weAccept = false
        }
        #expect(weAccept == foundationAccepts, "\(json)")
    }

    @Test(
        "refusals name the claim, never its value",
        arguments: [
            (#"{"iss": 7}"#, "'iss' must be a string"),
            (#"{"aud": {"x": 1}}"#, "'aud' must be a string or an array of strings"),
            (#"{"aud": ["x", 2]}"#, "'aud' must be a string or an array of strings"),
            (#"{"iat": "soon"}"#, "'iat' must be a number"),
            (#"{"exp": 1e300}"#, "'exp' must be a date in epoch seconds"),
            (#"{"exp": 1e400}"#, "'exp' must be a number a Double can hold"),
            (#"{"iat": 1e-400}"#, "'iat' must be a number a Double can hold"),
            (#"{"authorization": []}"#, "'authorization' must be an object"),
            (#"{"authorization": {"vehicleid": ["v1"]}}"#, "'authorization.vehicleid' must be a string"),
            (#"{"authorization": {"taskids": "t1"}}"#, "'authorization.taskids' must be an array of strings"),
        ])
    func typeErrors(json: String, message: String) {
        #expect(throws: TokenRefusal.malformedClaims(message)) { try payload(json) }
    }

    @Test(
        "not an object, duplicate keys and deep nesting are malformed",
        arguments: [
            "[1]", "\"x\"", #"{"iss":"a","iss":"b"}"#, #"{"authorization":{"vehicleid":"a","vehicleid":"b"}}"#,
            "{\"x\":" + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}",
        ])
    func malformed(json: String) {
        do {
            _ = try payload(json)
            Issue.record("accepted \(json)")
        } catch {
            guard case .malformed = error else { Issue.record("\(json): \(error)"); return }
        }
    }

    @Test(
        "trailing commas are refused, as RFC 8259 says, even where Foundation lets them pass",
        arguments: [#"{"a":1,}"#, #"{"a":[1,]}"#, #"{"authorization":{"vehicleid":"v",}}"#])
    func trailingCommas(json: String) {
        #expect(throws: TokenRefusal.self) { try payload(json) }
    }

    @Test("many keys are read, and a key repeated among them is refused without echoing it")
    func manyKeys() throws {
        let members = (0..<2_000).map { #""k\#($0)": 1"# }
        let many = try payload("{" + (members + [#""iss": "a@b""#]).joined(separator: ",") + "}")
        #expect(many.iss == "a@b")
        let repeated = (members + [#""k1500": 2"#]).joined(separator: ",")
        let error = #expect(throws: TokenRefusal.self) { try payload("{" + repeated + "}") }
        #expect(error == .malformed("payload is not valid JSON: an object has a key twice"))
        #expect(error.map { !"\($0)".contains("k1500") } ?? false)
    }

    @Test("invalid UTF-8 inside a string is refused")
    func invalidUTF8() {
        var bytes = Array(#"{"iss":"ab"}"#.utf8)
        bytes[8] = 0xC3  // a lead byte with no continuation
        #expect(throws: TokenRefusal.self) { try ClaimsPayload(json: Data(bytes)) }
    }

    @Test("the header reader takes alg, typ and kid and nothing else")
    func header() throws {
        let header = try JOSEHeader(json: Data(#"{"alg":"RS256","typ":"JWT","kid":"k1","x5u":"https://x"}"#.utf8))
        #expect(header == JOSEHeader(keyID: "k1"))
        #expect(throws: TokenRefusal.malformed("header 'alg' must be a string")) {
            try JOSEHeader(json: Data(#"{"alg":1}"#.utf8))
        }
        #expect(throws: TokenRefusal.malformed("header is not a JSON object")) { try JOSEHeader(json: Data("[]".utf8)) }
    }
}
