import FleetAuthServerHTTP
import Hummingbird

extension TokenServer {
    /// The console's page: its files and the kit it shares with the local Fleet Engine's.
    static let consolePage = ConsolePage.files(
        html: PackageResources.console_html, script: PackageResources.console_js, style: PackageResources.console_css)

    /// With ``TokenServerOptions/servesConsole``, `GET /console/` and its files. The page has
    /// no API of its own: it asks for the admin key, keeps it in the tab, and calls the admin
    /// API (`/v1/admin/…`) as the CLI and curl do, following `GET /v1/admin/live`.
    func addConsoleRoutes(to router: Router<TokenServerContext>) {
        guard options.servesConsole else { return }
        Self.consolePage.register(on: router.group("console"))
    }
}
