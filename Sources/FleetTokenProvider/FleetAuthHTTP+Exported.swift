// The HTTP seam (HTTPTransport, URLSessionTransport, RetryPolicy) is part of this library's API:
// an app that imports FleetTokenProvider uses it without importing FleetAuthHTTP itself.
@_exported import FleetAuthHTTP
