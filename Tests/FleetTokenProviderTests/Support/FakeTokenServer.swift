import FleetAuthServerHTTP
import FleetTokenProvider
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import TestSupport

/// How the fake token server states a token's expiry in its JSON answer.
enum StatedExpiry: Sendable {
    case epochSeconds(afterNow: Int)
    case epochMilliseconds(afterNow: Int)
    case relative(seconds: Int)

    func value(now: Date) -> Double {
        switch self {
        case .epochSeconds(let seconds): now.timeIntervalSince1970 + Double(seconds)
        case .epochMilliseconds(let seconds): (now.timeIntervalSince1970 + Double(seconds)) * 1000
        case .relative(let seconds): Double(seconds)
        }
    }
}

/// One answer of the fake token server.
indirect enum Reply: Sendable {
    /// 200 with a token minted `age` seconds ago (as a server that reuses tokens hands them
    /// out): `exp` claim `claimLifetime` seconds after `iat` (no `exp` when `nil`), and
    /// `stated` expiries in the body next to `token`.
    case token(claimLifetime: Int?, stated: [String: StatedExpiry], age: Int = 0)
    /// `status` with `body`, and a `Retry-After` header when given.
    case status(Int, body: String = "{}", retryAfter: String? = nil)
    /// `reply`, once the gate is open.
    case held(Gate, Reply)
    /// `reply`, after a real wait.
    case delayed(Duration, Reply)

    /// A token living `seconds`, stated the way FleetAuth's token server states it.
    static func token(lifetime seconds: Int) -> Reply {
        .token(
            claimLifetime: seconds,
            stated: ["expiresAt": .epochSeconds(afterNow: seconds), "expiresInSeconds": .relative(seconds: seconds)]
        )
    }
}

/// A request the fake server received.
struct RecordedRequest: Sendable {
    let path: String
    let authorization: String?
}

/// The fake server's script and memory: replies are taken from `script` in order, then
/// `fallback` for ever; every request and every token handed out is remembered.
actor TokenServerState {
    private(set) var requests: [RecordedRequest] = []
    private(set) var issued: [(path: String, token: String)] = []
    private var script: [Reply] = []
    private var fallback: Reply = .token(lifetime: 3600)
    let clock: any TokenClock

    init(clock: any TokenClock) {
        self.clock = clock
    }

    /// Queues replies for the next requests, in order.
    func enqueue(_ replies: Reply...) {
        script += replies
    }

    /// Sets the reply given once the queue is empty.
    func setFallback(_ reply: Reply) {
        fallback = reply
    }

    func respond(to request: RecordedRequest) async throws -> Response {
        requests.append(request)
        let reply = script.isEmpty ? fallback : script.removeFirst()
        return try await response(for: reply, to: request, serial: requests.count)
    }

    private func response(for reply: Reply, to request: RecordedRequest, serial: Int) async throws -> Response {
        switch reply {
        case .held(let gate, let reply):
            try await gate.wait()
            return try await response(for: reply, to: request, serial: serial)
        case .delayed(let duration, let reply):
            try await Task.sleep(for: duration)
            return try await response(for: reply, to: request, serial: serial)
        case .status(let status, let body, let retryAfter):
            return Self.response(status: status, body: body, retryAfter: retryAfter)
        case .token(let claimLifetime, let stated, let age):
            let token = mint(for: request.path, claimLifetime: claimLifetime, age: age, serial: serial)
            issued.append((request.path, token))
            var body: [String: Any] = ["token": token]
            for (key, expiry) in stated { body[key] = expiry.value(now: clock.now) }
            let json = try JSONSerialization.data(withJSONObject: body, options: .sortedKeys)
            return Self.response(status: 200, body: String(decoding: json, as: UTF8.self))
        }
    }

    private func mint(for path: String, claimLifetime: Int?, age: Int, serial: Int) -> String {
        let issuedAt = clock.now - TimeInterval(age)
        let id = path.split(separator: "/").last.map(String.init) ?? ""
        return TestJWT.make(
            issuedAt: issuedAt,
            expiresAt: claimLifetime.map { issuedAt + TimeInterval($0) },
            authorization: ["vehicleid": id],
            serial: serial
        )
    }

    private static func response(status: Int, body: String, retryAfter: String? = nil) -> Response {
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        fields[.cacheControl] = "no-store"
        fields[.retryAfter] = retryAfter
        return Response(
            status: HTTPResponse.Status(code: status),
            headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(string: body))
        )
    }
}

/// A real Hummingbird token server on 127.0.0.1 (a free port), scripted per test.
struct FakeTokenServer: Sendable {
    let port: Int
    let state: TokenServerState
    /// The clock tests move; the server mints by it unless it was given a clock of its own.
    let clock: ManualTokenClock

    /// Runs `body` against a server that stops when `body` returns; the server mints tokens by
    /// `serverClock`, or by `clock` when none is given.
    static func run<Result: Sendable>(
        clock: ManualTokenClock = ManualTokenClock(),
        serverClock: (any TokenClock)? = nil,
        _ body: @Sendable (FakeTokenServer) async throws -> Result
    ) async throws -> Result {
        let state = TokenServerState(clock: serverClock ?? clock)
        let router = Router()
        router.get("**") { request, _ in
            // A held or delayed reply still waiting when the test ends is dropped, not awaited.
            try await cancelWhenGracefulShutdown {
                try await state.respond(
                    to: RecordedRequest(path: request.uri.path, authorization: request.headers[.authorization])
                )
            }
        }
        var logger = Logger(label: "fake-token-server")
        logger.logLevel = .critical
        return try await RunningService.with(
            logger: logger,
            { [logger] onStarted in
                Application(
                    router: router,
                    configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                    onServerRunning: { await onStarted($0.localAddress?.port ?? 0) },
                    logger: logger
                )
            }
        ) { port in
            try await body(FakeTokenServer(port: port, state: state, clock: clock))
        }
    }

    /// The full URL (or URL template) for `path` on this server.
    func url(_ path: String) -> String {
        "http://127.0.0.1:\(port)\(path)"
    }

    /// Holds the next reply (a one-hour token) until the returned gate is opened.
    func holdNextToken() async -> Gate {
        let gate = Gate()
        await state.enqueue(.held(gate, .token(lifetime: 3600)))
        return gate
    }

    /// How many requests the server has received.
    var requestCount: Int {
        get async { await state.requests.count }
    }

    /// A fetcher for `path` on this server (the driver endpoint by default), whose answers are
    /// dated by the server's manual clock.
    func fetcher(
        path: String = "/v1/tokens/driver/{vehicleId}",
        responseFormat: TokenResponseFormat = .standard,
        requestTimeout: Duration = .seconds(10),
        retryPolicy: RetryPolicy = SleepRecorder().policy(),
        authorizeRequest: @escaping HTTPTokenFetcher.RequestAuthorizer = { _ in }
    ) throws -> HTTPTokenFetcher {
        HTTPTokenFetcher(
            urlTemplate: try TokenURLTemplate(url(path)),
            responseFormat: responseFormat,
            requestTimeout: requestTimeout,
            retryPolicy: retryPolicy,
            transport: ServerClockTransport(clock: clock),
            authorizeRequest: authorizeRequest
        )
    }

    /// A caching provider over ``fetcher(path:responseFormat:requestTimeout:retryPolicy:authorizeRequest:)``
    /// with default settings but its time limits, judged by this server's clock. A fetch a test
    /// holds behind a gate, or one a busy machine keeps waiting, is given two minutes of real
    /// time (the request's and the provider's limits) rather than 10 and 30 s: these tests are
    /// not about those limits, which the tests that are set themselves.
    func provider(
        configuration: CachingTokenProvider.Configuration = .init(fetchTimeout: .seconds(120)),
        events: EventRecorder? = nil
    ) throws -> CachingTokenProvider {
        CachingTokenProvider(
            fetcher: try fetcher(requestTimeout: .seconds(120)), configuration: configuration, clock: clock,
            onEvent: events?.hook)
    }
}
