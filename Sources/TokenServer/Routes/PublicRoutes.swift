import FleetAuthServerHTTP
import Foundation
import Hummingbird

extension TokenServer {
    /// `GET /.well-known/jwks.json`, `/healthz`, `/livez`, `/readyz`, `/metrics`, `/openapi.yaml`.
    func addPublicRoutes(to router: Router<TokenServerContext>) {
        router.get(".well-known/jwks.json") { [keyRing] _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json", .cacheControl: "public, max-age=300"],
                body: .init(byteBuffer: ByteBuffer(bytes: keyRing.jsonWebKeySet))
            )
        }
        router.addHealthRoute { [database = store.database] in await database.health() }
        router.addLivenessAndReadinessRoutes(lifecycle: options.lifecycle) { await self.readinessProblems() }
        router.addMetricsRoute(metrics)
        router.addOpenAPIRoute(OpenAPIDocument.yaml)
    }

    /// What keeps the server from being ready, besides draining: a database that does not
    /// answer, a signer that cannot sign.
    func readinessProblems() async -> [String] {
        let health = await store.database.health()
        let signing = await issuer.signingProblem()
        return (health.isHealthy ? [] : ["database: \(health.database)"]) + (signing.map { [$0] } ?? [])
    }

    /// `GET /`: what this server answers, for a developer who opens the address `serve` prints.
    /// Add it after every other route, so that it lists them all.
    func addIndexRoute(to router: Router<TokenServerContext>) {
        struct Index: Encodable {
            let service = "FleetAuth token server"
            let routes: [String]
            let openapi = "/openapi.yaml"
            let browsers = "/sdk/fleetauth.js"
        }
        let index = Index(routes: router.routeList())
        router.get("/") { _, _ in try JSONResponse.make(index) }
    }
}
