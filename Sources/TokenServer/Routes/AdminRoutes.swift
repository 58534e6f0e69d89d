import FleetAuthServerHTTP
import Foundation
import Hummingbird
import Logging

/// `POST /v1/admin/accounts` body: a password, an identity, or both.
struct CreateAccountRequest: StrictJSONBody {
    enum CodingKeys: String, CodingKey, CaseIterable { case username, password, role, identity }
    let username: String
    let password: String?
    let role: String
    let identity: IdentityBody?
}

/// The `identity` of a `POST /v1/admin/accounts` body, `{"issuer", "subject"}`; any other
/// member is refused, as at the top level.
struct IdentityBody: Decodable, Sendable {
    let issuer: String
    let subject: String

    private enum CodingKeys: String, CodingKey, CaseIterable { case issuer, subject }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: AnyKey.self)
        if let unknown = members.allKeys.map(\.stringValue).sorted().first(where: { CodingKeys(rawValue: $0) == nil }) {
            throw DecodingError.dataCorruptedError(
                forKey: AnyKey(stringValue: unknown), in: members, debugDescription: "unknown member")
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.issuer = try container.decode(String.self, forKey: .issuer)
        self.subject = try container.decode(String.self, forKey: .subject)
    }

    /// The identity to link.
    var identity: LinkedIdentity { LinkedIdentity(issuer: issuer, subject: subject) }
}

/// `PUT /v1/admin/…/driver|consumer` body.
struct AssignRequest: StrictJSONBody {
    enum CodingKeys: String, CodingKey, CaseIterable { case username }
    let username: String
}

/// An assignment as the admin API shows it, with the admin path that changes it.
struct AssignmentResponse: Encodable {
    let kind: String
    let resourceId: String
    let username: String
    /// `vehicles/{id}/driver` and the like, under `/v1/admin/`: `PUT` assigns, `DELETE` unassigns.
    let path: String

    init(_ assignment: Assignment) {
        kind = assignment.kind.rawValue
        resourceId = assignment.resourceID
        username = assignment.username
        path = AssignablePath(assignment.kind).path(of: assignment.resourceID)
    }
}

/// Where each kind of resource is assigned under `/v1/admin/`: `vehicles/{id}/driver`, …
struct AssignablePath: Encodable {
    let kind: ResourceKind
    /// The path with `{id}` for the resource's id.
    let template: String
    /// The account roles that may be assigned.
    let roles: [String]

    init(_ kind: ResourceKind) {
        self.kind = kind
        let (collection, holder) =
            switch kind {
            case .vehicle: ("vehicles", "driver")
            case .trip: ("trips", "consumer")
            case .deliveryVehicle: ("delivery-vehicles", "driver")
            case .trackingID: ("tracking-ids", "consumer")
            }
        template = "\(collection)/{id}/\(holder)"
        roles = kind.accountRoles.map(\.rawValue)
    }

    /// The router's path, `:id` for the id.
    var routerPath: RouterPath { RouterPath(template.replacingOccurrences(of: "{id}", with: ":id")) }

    /// The path of the resource `id`, percent-encoded as a path segment.
    func path(of id: String) -> String {
        template.replacingOccurrences(
            of: "{id}",
            with: id.addingPercentEncoding(
                withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? id)
    }
}

/// `DELETE /v1/admin/accounts/{username}/sessions` answer.
struct EndedSessions: Encodable {
    let endedSessions: Int
}

/// Checks the admin key of every request in the group, and refuses pages of other origins:
/// only the console, served from this server, calls the admin API from a browser.
struct AdminKeyMiddleware: RouterMiddleware {
    typealias Context = TokenServerContext
    let store: TokenServerStore

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if let origin = request.headers[.origin], !CrossOriginPolicy.isSameOrigin(origin, host: request.head.authority)
        {
            throw APIError.permissionDenied("the admin API answers no page of another origin (Origin \(origin))")
        }
        guard let key = BearerCredentials.token(in: request.headers) else {
            throw APIError.unauthenticated(
                "missing credentials: send Authorization: Bearer <admin key> (the key is in DATA_DIR/admin-key)")
        }
        guard let expected = try await store.adminKeyHash(), expected == SecretToken.hash(key) else {
            throw APIError.unauthenticated("the admin key is not valid")
        }
        return try await next(request, context)
    }
}

extension TokenServer {
    /// The admin API: accounts, assignments of vehicles, trips, delivery vehicles and tracking
    /// ids, the record of token requests, and the signing keys.
    func addAdminRoutes(to group: RouterGroup<TokenServerContext>) {
        let admin = group.add(middleware: AdminKeyMiddleware(store: store))
        admin.post("accounts") { request, context in
            let body = try await StrictJSON.decode(CreateAccountRequest.self, from: request, context: context)
            let account = try await self.administer {
                try await $0.createAccount(
                    username: body.username, password: body.password, roleName: body.role,
                    identity: body.identity?.identity)
            }
            var metadata: Logger.Metadata = ["username": "\(account.username)", "role": "\(account.role)"]
            if let identity = account.identity { metadata["identity"] = "\(identity)" }
            self.logger.info("account created", metadata: metadata)
            return try JSONResponse.make(account, status: .created)
        }
        admin.delete("accounts/:username") { _, context in
            let username = try context.parameters.decoded("username")
            try await self.administer { try await $0.deleteAccount(username: username) }
            self.logger.info("account deleted", metadata: ["username": "\(username)"])
            return JSONResponse.noContent
        }
        admin.delete("accounts/:username/sessions") { _, context in
            let username = try context.parameters.decoded("username")
            let ended = try await self.administer { try await $0.endSessions(username: username) }
            self.logger.info("sessions ended", metadata: ["username": "\(username)", "sessions": "\(ended)"])
            return try JSONResponse.make(EndedSessions(endedSessions: ended))
        }
        addListRoutes(to: admin)
        for route in ResourceKind.allCases.map(AssignablePath.init) {
            admin.put(route.routerPath) { request, context in
                let resource = Resource(route.kind, id: try context.parameters.decoded("id"))
                let body = try await StrictJSON.decode(AssignRequest.self, from: request, context: context)
                let assignment = try await self.administer { try await $0.assign(resource, to: body.username) }
                self.logger.info("assigned", metadata: ["resource": "\(resource)", "username": "\(body.username)"])
                return try JSONResponse.make(AssignmentResponse(assignment))
            }
            admin.delete(route.routerPath) { _, context in
                let resource = Resource(route.kind, id: try context.parameters.decoded("id"))
                try await self.administer { try await $0.unassign(resource) }
                self.logger.info("unassigned", metadata: ["resource": "\(resource)"])
                return JSONResponse.noContent
            }
        }
        addRecordRoutes(to: admin)
        addKeyRoutes(to: admin)
        addLiveRoute(to: admin)
    }

    /// Runs an administration step, turning store refusals into API errors.
    private func administer<Result>(_ step: (AccountAdministration) async throws -> Result) async throws -> Result {
        do {
            return try await step(accounts)
        } catch let error as StoreError {
            throw error.apiError
        }
    }
}
