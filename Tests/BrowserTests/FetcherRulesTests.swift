import BrowserDriver
import Foundation
import TestSupport
import Testing

extension BrowserSuite {
    /// `createAuthTokenFetcher`'s rules, in headless Chromium against the real token server: one
    /// request for many callers, the fewest requests over a long drive whatever the page's clock
    /// says, retries for what may pass and none for refusals.
    @Suite("Browser token fetcher")
    struct FetcherRulesTests {
        /// A fetcher for rider-1's trip in the page, as `fetcher`, with `options` added.
        private func fetcherScript(_ options: String = "") -> String {
            """
            const fetcher = module.createAuthTokenFetcher({
              baseURL: tokenServer, kind: "consumer", authorize: async () => `Bearer ${session}`, \(options)
            });
            const context = { tripId: "trip-1" };
            """
        }

        @Test("200 calls at once make one token request, and all get its token")
        func concurrentCallsShareOneRequest() async throws {
            try await BrowserScene.run { scene in
                try await scene.openBlankPage()
                struct Outcome: Decodable { let distinct: Int; let calls: Int; let leastLeft: Int }
                let outcome = try await scene.browser.run(
                    scene.prelude + fetcherScript() + """
                        const answers = await Promise.all(Array.from({ length: 200 }, () => fetcher({ context })));
                        return {
                          distinct: new Set(answers.map((a) => a.token)).size,
                          calls: answers.length,
                          leastLeft: Math.min(...answers.map((a) => a.expiresInSeconds)),
                        };
                        """, as: Outcome.self)
                #expect(outcome.calls == 200)
                #expect(outcome.distinct == 1)
                #expect(outcome.leastLeft >= 25)
                #expect(scene.fleet.issuedTokens("consumer") == 1)
            }
        }

        @Test(
            "30-second tokens over 3 minutes make the fewest requests, with the page's Date 2 h behind, right or 2 h ahead"
        )
        func fewestRequestsWhateverTheClock() async throws {
            try await BrowserScene.run { scene in
                // Reused while more than a quarter of 30 s is left: 22.5 s a token, so calls every
                // 250 ms from 0 to 180 s need tokens at 0, 22.5, …, 180 s.
                let lifetime = 30.0, span = 180.0
                let fewest = Int(span / (lifetime - lifetime / 4)) + 1
                for offsetHours in [-2, 0, 2] {
                    try await scene.openBlankPage()
                    let before = scene.fleet.issuedTokens("consumer")
                    struct Outcome: Decodable { let leastLeft: Int; let calls: Int; let realClockRequests: Int }
                    let outcome = try await scene.browser.run(
                        """
                        const RealDate = Date;
                        const shift = \(offsetHours) * 3600 * 1000;
                        globalThis.Date = class extends RealDate {
                          constructor(...args) { super(...(args.length ? args : [RealDate.now() + shift])); }
                          static now() { return RealDate.now() + shift; }
                        };
                        """ + scene.prelude + fetcherScript("clock: () => now,") + """
                            let now = 0, leastLeft = Infinity, calls = 0;
                            for (now = 0; now <= \(Int(span * 1000)); now += 250) {
                              const answer = await fetcher({ context });
                              leastLeft = Math.min(leastLeft, answer.expiresInSeconds);
                              calls += 1;
                            }
                            // And on the page's real monotonic clock, with its Date still shifted.
                            const real = module.createAuthTokenFetcher({ baseURL: tokenServer, kind: "consumer", authorize: async () => `Bearer ${session}` });
                            for (let i = 0; i < 20; i += 1) {
                              await real({ context });
                              await new Promise((resolve) => setTimeout(resolve, 25));
                            }
                            return { leastLeft, calls, realClockRequests: 1 };
                            """, as: Outcome.self)
                    let requests = scene.fleet.issuedTokens("consumer") - before
                    #expect(outcome.calls == 721)
                    #expect(
                        requests == fewest + outcome.realClockRequests,
                        "Date shifted \(offsetHours) h: \(requests) token requests")
                    // Never a token with less than the margin (7.5 s of 30) left.
                    #expect(outcome.leastLeft >= 7, "Date shifted \(offsetHours) h")
                }
            }
        }

        @Test(
            "a page over its session's 60 token requests a minute gets the real server's 429 and waits out its Retry-After"
        )
        func waitsOutTheSessionLimit() async throws {
            try await BrowserScene.run { scene in
                try await scene.openBlankPage()
                struct Outcome: Decodable { let sleeps: [Double]; let gotToken: Bool }
                let outcome = try await scene.browser.run(
                    scene.prelude
                        + fetcherScript(
                            "sleep: async (ms) => { sleeps.push(ms); await new Promise((done) => setTimeout(done, ms)); },"
                        ) + """
                            const sleeps = [];
                            // The login's session asks again and again (each token forgotten at once):
                            // 60 at once are allowed, then one a second, so a fast loop meets the limit
                            // however slow the machine, and the call that met it waits and gets a token.
                            let answer, calls = 0;
                            while (sleeps.length === 0 && calls < 300) {
                              answer = await fetcher({ context });
                              fetcher.invalidate({ context });
                              calls += 1;
                            }
                            return { sleeps, gotToken: typeof answer.token === "string" && answer.token.length > 0 };
                            """, as: Outcome.self)
                #expect(outcome.gotToken)
                #expect(
                    outcome.sleeps == [1000], "one wait, the server's Retry-After of 1 s (60 s / 60): \(outcome.sleeps)"
                )
                #expect(scene.fleet.limitedTokenRequests == 1)
            }
        }

        @Test(
            "503 and 429 are retried after Retry-After or a jittered backoff, network errors too; 401, 403 and the app's own credential failing are not; a stalled body times out; nothing sticks; invalidate and clear forget"
        )
        func retriesAndRefusals() async throws {
            try await BrowserScene.run { scene in
                try await scene.openBlankPage()
                struct Outcome: Decodable {
                    let sleeps: [Double]
                    let attempts: Int
                    let gotToken: Bool
                    let forbidden: String
                    let forbiddenStatus: Int
                    let forbiddenAttempts: Int
                    let unauthenticatedStatus: Int
                    let unauthenticatedAttempts: Int
                    let exhausted: String
                    let afterExhausted: Bool
                    let signedOut: String
                    let signedOutAttempts: Int
                    let stalled: String
                    let forgetAttempts: Int
                }
                let outcome = try await scene.browser.run(
                    scene.prelude + """
                        let attempts = 0, script = [];
                        const sleeps = [];
                        // The first attempts meet what `script` says; the rest reach the real server.
                        const send = (url, init) => {
                          attempts += 1;
                          const next = script.shift();
                          if (next === "network") return Promise.reject(new TypeError("Failed to fetch"));
                          if (next) return Promise.resolve(new Response(JSON.stringify({ error: { message: "busy" } }), next));
                          return fetch(url, init);
                        };
                        const make = (authorize, extra = {}) => module.createAuthTokenFetcher({
                          baseURL: tokenServer, kind: "consumer", authorize, fetch: send, random: () => 0.5,
                          sleep: async (ms) => { sleeps.push(ms); }, ...extra,
                        });
                        const rider = async () => `Bearer ${session}`;

                        script = [{ status: 503, headers: { "Retry-After": "2" } }, { status: 429 }, "network"];
                        const fetcher = make(rider, { maxAttempts: 4 });
                        const answer = await fetcher({ context: { tripId: "trip-1" } });
                        const retried = attempts;

                        attempts = 0;
                        let forbidden = "", forbiddenStatus = 0;
                        try { await fetcher({ context: { tripId: "trip-2" } }); } catch (error) { forbidden = error.message; forbiddenStatus = error.status; }
                        try { await fetcher({ context: { tripId: "trip-2" } }); } catch {}
                        const forbiddenAttempts = attempts;

                        attempts = 0;
                        let unauthenticatedStatus = 0;
                        try { await make(async () => "Bearer fas_unknown")({ context: { tripId: "trip-1" } }); } catch (error) { unauthenticatedStatus = error.status; }
                        const unauthenticatedAttempts = attempts;

                        script = [{ status: 500 }, { status: 500 }, { status: 500 }];
                        let exhausted = "";
                        const fresh = make(rider);
                        try { await fresh({ context: { tripId: "trip-1" } }); } catch (error) { exhausted = error.message; }
                        const afterExhausted = typeof (await fresh({ context: { tripId: "trip-1" } })).token === "string";

                        // The app's credential failing is the app's error, said as such, and never sent.
                        attempts = 0;
                        let signedOut = "";
                        try { await make(async () => { throw new Error("no user is signed in"); })({ context: { tripId: "trip-1" } }); } catch (error) { signedOut = error.message; }
                        const signedOutAttempts = attempts;

                        // A server that sends its head and stalls is a timeout.
                        let stalled = "";
                        const stalling = module.createAuthTokenFetcher({
                          baseURL: tokenServer, kind: "consumer", authorize: rider, timeout: 300, maxAttempts: 1,
                          fetch: (url, init) => Promise.resolve(new Response(new ReadableStream({
                            start(controller) {
                              controller.enqueue(new TextEncoder().encode('{"token":'));
                              init.signal.addEventListener("abort", () => controller.error(new DOMException("aborted", "AbortError")));
                            },
                          }))),
                        });
                        try { await stalling({ context: { tripId: "trip-1" } }); } catch (error) { stalled = error.message; }

                        // invalidate forgets one id's token, clear every token: the next call asks again.
                        attempts = 0;
                        const kept = make(rider);
                        await kept({ context: { tripId: "trip-1" } });
                        await kept({ context: { tripId: "trip-1" } });
                        kept.invalidate({ context: { tripId: "trip-1" } });
                        await kept({ context: { tripId: "trip-1" } });
                        kept.clear();
                        await kept({ context: { tripId: "trip-1" } });
                        const forgetAttempts = attempts;
                        return {
                          signedOut, signedOutAttempts, stalled, forgetAttempts,
                          sleeps, attempts: retried, gotToken: typeof answer.token === "string", forbidden, forbiddenStatus,
                          forbiddenAttempts, unauthenticatedStatus, unauthenticatedAttempts, exhausted, afterExhausted,
                        };
                        """, as: Outcome.self)
                // 503 with Retry-After: 2 s; 429 without: half of 1 s; a network error: half of 2 s;
                // then 500 twice with the default 3 attempts: half of 0.5 s, half of 1 s.
                #expect(outcome.sleeps == [2000, 500, 1000, 250, 500])
                #expect(outcome.attempts == 4)
                #expect(outcome.gotToken)
                #expect(outcome.forbiddenStatus == 403)
                #expect(outcome.forbidden.contains("not assigned"), "\(outcome.forbidden)")
                #expect(outcome.forbiddenAttempts == 2, "one attempt per call: not retried, and not remembered")
                #expect(outcome.unauthenticatedStatus == 401)
                #expect(outcome.unauthenticatedAttempts == 1)
                #expect(outcome.exhausted.contains("busy"), "\(outcome.exhausted)")
                #expect(outcome.afterExhausted, "a failure is not sticky")
                #expect(
                    outcome.signedOut == "authorize() failed: no user is signed in" && outcome.signedOutAttempts == 0,
                    "\(outcome.signedOut)")
                #expect(outcome.stalled.contains("no answer within 300 ms"), "\(outcome.stalled)")
                #expect(
                    outcome.forgetAttempts == 3, "one fetch, a reuse, then one after invalidate and one after clear")
            }
        }
    }
}
