import FleetTokens
import Foundation
import Testing

@testable import TokenServer

/// The token server's role table: accounts sign with the role FleetTokens' table gives their
/// tokens (one Fleet Engine honours for them, and the narrowest), every role reaches its
/// tokens through one route, and the browser module knows the same routes.
@Suite("Role table")
struct RoleTableTests {
    @Test(
        "each account role signs with the narrowest role its tokens accept",
        arguments: [
            (AccountRole.driver, FleetEngineRole.driverSDKUser), (.consumer, .consumerSDKUser),
            (.deliveryDriver, .deliveryUntrustedDriver), (.deliveryConsumer, .deliveryConsumer),
            (.fleetReader, .deliveryFleetReader),
        ])
    func signingRoles(account: AccountRole, role: FleetEngineRole) {
        #expect(account.signingRole == role)
        #expect(account.tokenKind(id: "x").signingRoles.contains(account.signingRole))
    }

    @Test("every role asks for its tokens through one route, and every route is some role's")
    func routes() {
        for role in AccountRole.allCases {
            let reaching = TokenRoute.all.filter { route in
                route.request(id: role.resourceKind == nil ? nil : "x")?.accountRoles.contains(role) == true
            }
            #expect(reaching.count == 1, "\(role)")
        }
        #expect(Set(TokenRoute.all.map(\.segment)).count == TokenRoute.all.count)
        for kind in ResourceKind.allCases {
            let route = TokenRoute.all.filter { $0.request(id: "x")?.resource?.kind == kind }
            #expect(route.map(\.segment) == [kind.accountRoles[0].rawValue], "\(kind)")
        }
    }

    @Test("a request refused before its account is known is recorded under its route's name")
    func routeNames() {
        for route in TokenRoute.all {
            let request = route.request(id: "x") ?? route.request(id: nil)
            #expect(request?.routeName == route.segment)
        }
    }

    @Test("former spellings name the current roles")
    func formerSpellings() {
        #expect(AccountRole(name: "trusted-delivery-driver") == .trustedDeliveryDriver)
        #expect(AccountRole(name: "delivery-trusted-driver") == .trustedDeliveryDriver)
        #expect(AccountRole(name: "untrusted-delivery-driver") == nil)  // a token kind's, not a role's
        #expect(AccountRole(name: "trusted_delivery_driver") == nil)
        for (former, current) in FormerSpellings.all {
            #expect(FormerSpellings.current(of: former) == current)
            #expect(FormerSpellings.all[current] == nil, "\(current) is current")
        }
    }

    @Test("the OpenAPI document's roles are the account roles and their former spellings")
    func openAPIRoles() throws {
        let yaml = String(decoding: OpenAPIDocument.yaml, as: UTF8.self)
        let schema = try #require(yaml.range(of: "\n    Role:\n"), "no Role schema")
        let line = try #require(
            yaml[schema.upperBound...].split(separator: "\n").first { $0.contains("enum:") }, "no enum")
        let names = line.drop { $0 != "[" }.dropFirst().prefix { $0 != "]" }.split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let former = FormerSpellings.all.filter { AccountRole(rawValue: $0.value) != nil }.keys
        #expect(Set(names) == Set(AccountRole.allCases.map(\.rawValue) + former), "\(names)")
        #expect(names.count == Set(names).count, "a role named twice: \(names)")
    }

    @Test("the browser module's KINDS are the token routes, with the ids they read")
    func browserKinds() throws {
        let module = URL(filePath: #filePath).deletingLastPathComponent().appending(
            path: "../../Sources/TokenServer/Resources/fleetauth.js")
        let source = try String(contentsOf: module, encoding: .utf8)
        let start = try #require(source.firstRange(of: "const KINDS = {"))
        let end = try #require(source[start.upperBound...].firstRange(of: "\n};"))
        let rows = source[start.upperBound..<end.lowerBound].matches(
            of: /"?(?<kind>[a-z-]+)"?: \{ path: "(?<path>[a-z-]+)", context: (?:"(?<context>\w+)"|null) \}/)
        let kinds = rows.map { row in
            "\(row.output.kind)=\(row.output.path)/\(row.output.context.map(String.init) ?? "-")"
        }
        let routes = TokenRoute.all.map { route in
            switch route.asks {
            case .resource(let kind): "\(route.segment)=\(route.segment)/\(kind.tokenRouteParameter)"
            case .unscoped: "\(route.segment)=\(route.segment)/-"
            }
        }
        #expect(kinds == routes)
    }
}
