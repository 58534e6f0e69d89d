import FleetAuthServerHTTP
import Foundation
import Hummingbird

/// `GET /v1/admin/accounts` answer: a page of accounts, the roles an account may have, and
/// where the next page starts.
struct AccountList: Encodable {
    /// An account with its unexpired sessions and what it is assigned to.
    struct Entry: Encodable {
        let username: String
        let role: String
        let identity: LinkedIdentity?
        let createdAt: Int64
        /// Unexpired sessions.
        let sessions: Int
        let assignments: [AssignmentResponse]
    }

    let accounts: [Entry]
    /// Every role an account may be created with.
    let roles: [String]
    let nextPageToken: String?
}

/// `GET /v1/admin/assignments` answer: a page of assignments, where each kind is assigned, and
/// where the next page starts.
struct AssignmentList: Encodable {
    let assignments: [AssignmentResponse]
    let kinds: [AssignablePath]
    let nextPageToken: String?
}

extension TokenServer {
    /// `GET accounts?pageSize=&pageToken=` (each with its role, identity, unexpired sessions and
    /// assignments, by username) and `GET assignments?kind=&resourceId=&username=&pageSize=&pageToken=`
    /// (by kind and id), each a page at a time, filtered in the database.
    func addListRoutes(to admin: RouterGroup<TokenServerContext>) {
        admin.get("accounts") { request, _ in
            let parameters = try ListParameters(request.uri.formQueryParameters, allowed: [])
            let found = try await self.store.accounts(after: parameters.pageToken, limit: parameters.pageSize + 1)
            let page = found.prefix(parameters.pageSize)
            // The page's sessions and assignments, a query each: its usernames are a range, in order.
            var sessions: [String: Int] = [:], assignments: [String: [Assignment]] = [:]
            if let first = page.first?.username, let last = page.last?.username {
                sessions = try await self.store.sessionCounts(now: self.options.epochSeconds, usernames: first...last)
                assignments = Dictionary(
                    grouping: try await self.store.assignments(matching: AssignmentQuery(usernames: first...last)),
                    by: \.username)
            }
            let entries = page.map { account in
                AccountList.Entry(
                    username: account.username, role: account.role.rawValue, identity: account.identity,
                    createdAt: account.createdAt,
                    sessions: sessions[account.username] ?? 0,
                    assignments: (assignments[account.username] ?? []).map(AssignmentResponse.init))
            }
            let next = found.count > parameters.pageSize ? page.last?.username : nil
            return try JSONResponse.make(
                AccountList(accounts: entries, roles: AccountRole.allCases.map(\.rawValue), nextPageToken: next))
        }
        admin.get("assignments") { request, _ in
            let parameters = try ListParameters(
                request.uri.formQueryParameters, allowed: ["kind", "resourceId", "username"])
            var query = AssignmentQuery(
                resourceID: parameters.value("resourceId"), username: parameters.value("username"),
                limit: parameters.pageSize + 1)
            if let name = parameters.value("kind") {
                guard let kind = ResourceKind(rawValue: name) else {
                    throw APIError.invalidArgument(
                        "kind is one of \(ResourceKind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                query.kind = kind
            }
            if let token = parameters.pageToken {
                let parts = token.split(separator: "/", maxSplits: 1)
                guard parts.count == 2, let kind = ResourceKind(rawValue: String(parts[0])) else {
                    throw APIError.invalidArgument("pageToken is not one this server gave")
                }
                query.after = Resource(kind, id: String(parts[1]))
            }
            let found = try await self.store.assignments(matching: query)
            let page = found.prefix(parameters.pageSize)
            let next =
                found.count > parameters.pageSize ? page.last.map { "\($0.kind.rawValue)/\($0.resourceID)" } : nil
            return try JSONResponse.make(
                AssignmentList(
                    assignments: page.map(AssignmentResponse.init),
                    kinds: ResourceKind.allCases.map(AssignablePath.init), nextPageToken: next))
        }
    }
}
