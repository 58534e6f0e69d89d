// The docs' Swift for apps (README.md, docs/app.md), verbatim inside functions where it is
// statements; scripts/check-consumers.sh checks that every block of theirs is found here.
// DriverSDKStubs stands in for `import GoogleRidesharingDriver` / `import GoogleRidesharingConsumer`.
import DriverSDKStubs
import FirebaseAuth
import FleetEngineClient
import FleetTokenProvider
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

nonisolated final class DriverAuthorization: NSObject, GMTDAuthorization {
    private let tokens: any AuthorizationTokenProvider

    init(tokens: any AuthorizationTokenProvider) {
        self.tokens = tokens
    }

    func fetchToken(
        with authorizationContext: GMTDAuthorizationContext?,
        completion: @escaping GMTDAuthTokenFetchCompletionHandler
    ) {
        // The SDK takes the answer on any thread (its own sample answers from URLSession's
        // queue); its handler type is just not marked Sendable.
        nonisolated(unsafe) let completion = completion
        tokens.fetchToken(with: AuthorizationContext(vehicleID: authorizationContext?.vehicleID)) { token, error in
            completion(token, error)
        }
    }
}

nonisolated final class ConsumerAuthorization: NSObject, GMTCAuthorization {
    private let tokens: any AuthorizationTokenProvider

    init(tokens: any AuthorizationTokenProvider) {
        self.tokens = tokens
    }

    func fetchToken(
        with authorizationContext: GMTCAuthorizationContext?,
        completion: @escaping GMTCAuthTokenFetchCompletionHandler
    ) {
        nonisolated(unsafe) let completion = completion
        tokens.fetchToken(with: AuthorizationContext(tripID: authorizationContext?.tripID)) { token, error in
            completion(token, error)
        }
    }
}

/// Compiles only while both conformances are nonisolated: the SDK holds them as plain
/// `any GMTDAuthorization` / `any GMTCAuthorization` and calls them from its own queues.
nonisolated func handToSDKs(_ tokens: any AuthorizationTokenProvider) {
    askFromSDKQueue(DriverAuthorization(tokens: tokens), vehicleID: "vehicle-1")
    askFromSDKQueue(ConsumerAuthorization(tokens: tokens), tripID: "trip-1")
}

func makeProvider() throws -> CachingTokenProvider {
let tokens = CachingTokenProvider(
    fetcher: HTTPTokenFetcher(
        urlTemplate: try TokenURLTemplate("https://tokens.example.com/v1/tokens/driver/{vehicleId}"),
        authorizeRequest: { request in
            let session = try await Session.current.token()  // the app's own login session
            request.setValue("Bearer \(session)", forHTTPHeaderField: "Authorization")
        }
    )
)
    return tokens
}

func makeFormat() -> TokenResponseFormat {
let format = TokenResponseFormat(
    tokenKey: "access_token",
    expiryFields: [.init(key: "expires_at_ms", convention: .epochMilliseconds)]  // or .epochSeconds, .secondsFromNow
)
    return format
}

func readTrip(tokens: CachingTokenProvider, tripURL: URL) async throws {
let trip = AuthorizationContext(tripID: "trip-7")
var request = URLRequest(url: tripURL)
request.setValue("Bearer \(try await tokens.token(for: trip))", forHTTPHeaderField: "Authorization")
let (body, response) = try await URLSession.shared.data(for: request)
if (response as? HTTPURLResponse)?.statusCode == 401 {
    await tokens.invalidate(trip)  // Fleet Engine refused the token: the next call fetches a new one
    // …and retry the request once with `try await tokens.token(for: trip)`, never in a loop.
}
    _ = body
}

func tunedProvider(fetcher: HTTPTokenFetcher, logger: AppLogger) -> CachingTokenProvider {
let tokens = CachingTokenProvider(
    fetcher: fetcher,
    configuration: .init(refreshMargin: .seconds(60), refreshWindow: .seconds(300), fetchTimeout: .seconds(30), capacity: 64),
    onEvent: { event in logger.debug("token \(event)") }
)
    return tokens
}

func driveAndFollow(tokens: CachingTokenProvider) async throws {
let fleet = FleetEngineClient(baseURL: URL(string: "https://fleetengine.googleapis.com")!,
                              providerID: "my-fleet", tokens: tokens)   // tokens: a CachingTokenProvider

// Driver app: report every location; the reporter decides what is sent.
let reporter = VehicleReporter(vehicleID: "vehicle-1", client: fleet)
Task { for await event in reporter.events { log(event) } }   // accepted, superseded, retrying, dropped, stopped
await reporter.report(VehicleLocation(location: LatLng(latitude: 52.52, longitude: 13.405), heading: 90, speed: 8))

// Consumer app: a reading of the trip every 5 s until it is complete or cancelled.
for try await trip in TripFollower(tripID: "trip-1", client: fleet) { show(trip.tripStatus) }
}

func firebaseProvider() throws -> CachingTokenProvider {
let tokens = CachingTokenProvider(
    fetcher: HTTPTokenFetcher(
        urlTemplate: try TokenURLTemplate("https://tokens.example.com/v1/tokens/driver/{vehicleId}"),
        authorizeRequest: { request in
            // Firebase hands out its cached ID token and refreshes it when it is about to expire.
            guard let idToken = try await Auth.auth().currentUser?.getIDToken() else { throw SignedOut() }  // the app's own error
            request.setValue("Bearer \(idToken)", forHTTPHeaderField: "Authorization")
        }
    )
)
    return tokens
}
