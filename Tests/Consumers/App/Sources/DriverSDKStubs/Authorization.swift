import Foundation

// Stand-ins for the authorization protocols of Google's Driver SDK (GoogleRidesharingDriver)
// and Consumer SDK (GoogleRidesharingConsumer), as Swift sees their Objective-C headers: the
// completion handlers are plain closures, not Sendable, and the SDK calls them from its own
// queues.

/// What the Driver SDK passes when it asks for a token.
open class GMTDAuthorizationContext: NSObject {
    /// The vehicle the SDK reports for.
    public let vehicleID: String

    public init(vehicleID: String) {
        self.vehicleID = vehicleID
    }
}

/// Hands the Driver SDK its token, or an error.
public typealias GMTDAuthTokenFetchCompletionHandler = (String?, Error?) -> Void

/// What the Driver SDK asks a token provider for.
public protocol GMTDAuthorization: NSObjectProtocol {
    func fetchToken(
        with authorizationContext: GMTDAuthorizationContext?,
        completion: @escaping GMTDAuthTokenFetchCompletionHandler
    )
}

/// What the Consumer SDK passes when it asks for a token.
open class GMTCAuthorizationContext: NSObject {
    /// The trip the SDK follows.
    public let tripID: String

    public init(tripID: String) {
        self.tripID = tripID
    }
}

/// Hands the Consumer SDK its token, or an error.
public typealias GMTCAuthTokenFetchCompletionHandler = (String?, Error?) -> Void

/// What the Consumer SDK asks a token provider for.
public protocol GMTCAuthorization: NSObjectProtocol {
    func fetchToken(
        with authorizationContext: GMTCAuthorizationContext?,
        completion: @escaping GMTCAuthTokenFetchCompletionHandler
    )
}

/// How the SDK uses a provider: from one of its own queues, never the main actor.
public func askFromSDKQueue(_ authorization: any GMTDAuthorization, vehicleID: String) {
    DispatchQueue.global().async {
        authorization.fetchToken(with: GMTDAuthorizationContext(vehicleID: vehicleID)) { _, _ in }
    }
}

/// How the Consumer SDK uses a provider: from one of its own queues.
public func askFromSDKQueue(_ authorization: any GMTCAuthorization, tripID: String) {
    DispatchQueue.global().async {
        authorization.fetchToken(with: GMTCAuthorizationContext(tripID: tripID)) { _, _ in }
    }
}
