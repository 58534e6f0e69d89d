import FleetAuthServerHTTP
import Testing

/// Both servers read `Authorization` by the same rules.
@Suite("Bearer credentials")
struct BearerCredentialsTests {
    @Test(arguments: [
        (["Bearer abc.def.ghi"], BearerCredentials.Reading.token("abc.def.ghi")),
        (["bearer  abc \t"], .token("abc")),
        (["\tBEARER abc"], .token("abc")),
        ([String](), .missing),
        (["Bearer"], .missing),
        (["Bearer   "], .missing),
        (["   "], .missing),
        (["Basic dXNlcjpwdw=="], .otherScheme),
        (["Bearerabc"], .otherScheme),
        (["Bearer a", "Bearer b"], .several(2)),
    ])
    func reads(values: [String], expected: BearerCredentials.Reading) {
        #expect(BearerCredentials.read(values) == expected)
    }
}
