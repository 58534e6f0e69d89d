import FleetAuthServerHTTP
import Foundation
import HTTPTypes
import Hummingbird

/// The console's routes under `/console/`: its page (``page``, from the binary's resources)
/// and its API, read by the page and by anyone with curl:
///
/// - `GET api/access`: whether a key is needed;
/// - `GET api/overview`: the provider, the doors, the trusted accounts (email, role, key ids),
///   the counts of each kind of resource and of calls;
/// - `GET api/marks?kind=&after=&limit=`: resources as the map draws them, by id;
/// - `GET api/resources/{kind}/{id}`: one resource in Fleet Engine's JSON;
/// - `GET api/requests?method=&status=&role=&resource=&before=&limit=`: a page of the last calls;
/// - `GET api/trail/{kind}/{id}?from=&to=`: a vehicle's path with its gaps, dwells and jumps;
/// - `GET api/events`: the live stream (``ConsoleEventStream``);
/// - `GET api/export`, `POST api/import`: the whole state as a ``FleetDocument``.
struct ConsoleRoutes: Sendable {
    typealias Context = FleetEngineRequestContext

    let console: FleetConsole
    let state: EngineState
    let authenticator: TokenAuthenticator

    /// The page: its files and the kit it shares with the token server's console.
    static let page = ConsolePage.files(
        html: PackageResources.console_html, script: PackageResources.console_js, style: PackageResources.console_css)

    func register(on router: Router<Context>) {
        let group = router.group("console").add(middleware: ConsoleGuard(access: console.access))
        Self.page.register(on: group)
        let api = group.group("api")
        registerReads(on: api)
        registerFleetDocument(on: api)
    }

    /// What the page reads: access, overview, marks, a resource, requests, trails, events.
    private func registerReads(on api: RouterGroup<Context>) {
        api.get("access") { _, _ in
            if case .key = console.access { return Self.json(["keyRequired": true]) }
            return Self.json(["keyRequired": false])
        }
        api.get("overview") { _, _ in Self.json(overview()) }
        api.get("marks") { request, _ in
            let query = request.uri.formQueryParameters
            let kind = try query.get("kind").map(Self.kind)
            let limit = min(query.get("limit").flatMap(Int.init) ?? .max, .max)
            return Self.json(["marks": state.marks(kind: kind, after: query.get("after"), limit: max(1, limit))])
        }
        api.get("resources/:kind/:id") { _, context in
            let kind = try Self.kind(context.pathParameter("kind"))
            let id = try context.pathParameter("id")
            guard let json = state.json(of: kind, id: id) else {
                throw APIError.notFound("there is no \(kind.rawValue) '\(id)'")
            }
            return Self.response(Array(json.utf8))
        }
        api.get("requests") { request, _ in
            let query = request.uri.formQueryParameters
            let filter = RequestFilter(query: query)
            let limit = min(max(query.get("limit").flatMap(Int.init) ?? 50, 1), 500)
            let (page, totals) = console.requests.pageWithTotals(
                filter, before: query.get("before").flatMap(UInt64.init), limit: limit)
            return Self.json(RequestsPage(requests: page, totals: totals))
        }
        api.get("trail/:kind/:id") { request, context in
            let kind = try Self.kind(context.pathParameter("kind"))
            guard kind == .vehicle || kind == .deliveryVehicle else {
                throw APIError.invalidArgument("only vehicles and delivery vehicles have trails")
            }
            let query = request.uri.formQueryParameters
            let from = query.get("from").flatMap(Double.init) ?? -.infinity,
                to = query.get("to").flatMap(Double.init) ?? .infinity
            let trail = console.activity.trail(of: kind, id: try context.pathParameter("id"), from: from, to: to)
            return Self.json(TrailAnalysis(trail))
        }
        api.get("events") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/event-stream"],
                body: ConsoleEventStream(console: console, state: state).body())
        }
    }

    /// The fleet as one document: export and import.
    private func registerFleetDocument(on api: RouterGroup<Context>) {
        api.get("export") { _, _ in
            var response = Self.response(
                Array(try FleetDocument.encode(state.savedState.snapshot, provider: console.provider)))
            response.headers[.contentDisposition] = #"attachment; filename="fleet-engine-\#(console.provider).json""#
            return response
        }
        api.post("import") { request, _ in
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: FleetDocument.maximumBytes)
            } catch {
                throw APIError.invalidArgument("the document is larger than \(FleetDocument.maximumBytes) bytes")
            }
            let snapshot: ProviderSnapshot
            do throws(InvalidArgument) {
                snapshot = try FleetDocument.decode(Data(body.readableBytesView), provider: console.provider)
            } catch {
                throw APIError.invalidArgument(error.description)
            }
            try await state.importSnapshot(snapshot).saved()
            return Self.json(state.counts)
        }
    }

    private func overview() -> ConsoleOverview {
        ConsoleOverview(
            provider: console.provider, doors: console.listeningDoors,
            accounts: authenticator.trustedAccounts.map(ConsoleAccount.init).sorted { $0.email < $1.email },
            counts: state.counts, requests: console.requests.totals)
    }

    /// The kind a path or query names (`vehicle`, `trip`, `deliveryVehicle`, `task`), or 400.
    private static func kind(_ name: String) throws(APIError) -> ResourceKind {
        guard let kind = ResourceKind(rawValue: name) else {
            throw .invalidArgument(
                "'\(name)' is not a kind of resource; the kinds are \(ResourceKind.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        return kind
    }

    static func json(_ value: some Encodable) -> Response {
        response(Array((try? encoder.encode(value)) ?? Data("{}".utf8)))
    }

    private static func response(_ bytes: [UInt8]) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Dates as milliseconds since 1970, what a page's `new Date(…)` takes.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

/// `GET /console/api/overview`.
struct ConsoleOverview: Sendable, Encodable {
    let provider: String
    let doors: [ConsoleDoor]
    let accounts: [ConsoleAccount]
    let counts: ResourceCounts
    let requests: RequestTotals
}

/// `GET /console/api/requests`: the page, newest first, and the totals since start.
struct RequestsPage: Sendable, Encodable {
    let requests: [RequestRecord]
    let totals: RequestTotals
}
