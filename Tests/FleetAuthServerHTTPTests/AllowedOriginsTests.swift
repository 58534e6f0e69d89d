import FleetAuthServerHTTP
import Testing

/// `--allow-origin` values: what is an origin, how it is compared with a browser's `Origin`.
@Suite("Allowed origins")
struct AllowedOriginsTests {
    @Test("origins are compared as browsers send them: lowercased, the default port left out")
    func exactOrigins() throws {
        let allowed = try AllowedOrigins(parsing: [
            "https://Rider.Example.com", "http://shop.example:8443", "https://ops.example:443",
        ])
        for origin in [
            "https://rider.example.com", "HTTPS://RIDER.EXAMPLE.COM", "http://shop.example:8443", "https://ops.example",
        ] {
            #expect(allowed.allows(origin), "\(origin)")
        }
        for origin in [
            "http://rider.example.com", "https://rider.example.com:8443", "https://evil.rider.example.com",
            "http://shop.example",
            "https://rider.example.com.evil.net", "null", "",
        ] {
            #expect(!allowed.allows(origin), "\(origin)")
        }
    }

    @Test("scheme://host:* allows every port of that host, and only of that host")
    func anyPort() throws {
        let allowed = AllowedOrigins.loopback
        for origin in ["http://localhost:5173", "http://127.0.0.1:1", "http://localhost", "http://127.0.0.1:65535"] {
            #expect(allowed.allows(origin), "\(origin)")
        }
        for origin in [
            "https://localhost:5173", "http://localhost.evil.net:80", "http://127.0.0.2:8000", "http://localhost:80x",
        ] {
            #expect(!allowed.allows(origin), "\(origin)")
        }
        #expect(try AllowedOrigins(parsing: ["http://localhost:*", "http://127.0.0.1:*"]) == allowed)
    }

    @Test(
        "what is not an origin is refused, naming it",
        arguments: [
            "*", "https://*.example.com", "rider.example.com", "ftp://rider.example.com", "https://rider.example.com/",
            "https://rider.example.com/app",
            "https://user@rider.example.com", "https://rider.example.com:0", "https://rider.example.com:70000",
            "https://", "https://rider.example.com?x",
            "https://rider.example.com:*1", "https://bücher.example",
        ])
    func notOrigins(_ value: String) {
        #expect(throws: AllowedOriginsError(value: value)) { try AllowedOrigins(parsing: [value]) }
    }

    @Test("none allows nothing; union keeps both")
    func noneAndUnion() throws {
        #expect(!AllowedOrigins.none.allows("http://localhost:3000"))
        let both = try AllowedOrigins(parsing: ["https://rider.example.com"]).union(.loopback)
        #expect(both.allows("https://rider.example.com") && both.allows("http://localhost:3000"))
    }
}
