import Hummingbird
import NIOCore

/// The request context of the token server: Hummingbird's core plus the client's address,
/// which login throttling counts failures by.
package struct TokenServerContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's per-request storage.
    package var coreContext: CoreRequestContextStorage
    /// The connected client's address.
    package let remoteAddress: SocketAddress?

    /// A context for a request arriving on `source`'s channel.
    package init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }

    /// The client's IP address without its port, for throttling.
    var clientAddress: String? {
        remoteAddress?.ipAddress
    }
}
