import FleetAuthServerHTTP
import Testing

@Suite("Fetched documents")
struct FetchedDocumentTests {
    @Test("Cache-Control gives max-age; no-cache and no-store give zero; otherwise nothing")
    func cacheControl() {
        #expect(
            FetchedDocument.maxAge(cacheControl: "public, max-age=19960, must-revalidate, no-transform")
                == .seconds(19960))
        #expect(FetchedDocument.maxAge(cacheControl: "max-age=\"60\"") == .seconds(60))
        #expect(FetchedDocument.maxAge(cacheControl: "Max-Age=0") == .zero)
        #expect(FetchedDocument.maxAge(cacheControl: "max-age=600, no-cache") == .zero)
        #expect(FetchedDocument.maxAge(cacheControl: "no-store") == .zero)
        #expect(FetchedDocument.maxAge(cacheControl: "public") == nil)
        #expect(FetchedDocument.maxAge(cacheControl: "max-age=-5, max-age=soon") == nil)
    }

    @Test("a fetch that cannot connect fails within its timeout and names the URL without credentials")
    func unreachable() async {
        let start = ContinuousClock.now
        await #expect {
            _ = try await FetchedDocument.fetch("http://user:secret@127.0.0.1:9/jwks.json", timeout: .milliseconds(500))
        } throws: { error in
            let failure = error as? FetchError
            return failure?.url == "http://127.0.0.1:9/jwks.json" && !"\(error)".contains("secret")
        }
        // Bounded, not prompt: under CI's load the refused connection can take seconds to report.
        #expect(ContinuousClock.now - start < .seconds(30))
    }
}
