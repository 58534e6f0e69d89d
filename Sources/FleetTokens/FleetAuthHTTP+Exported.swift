// The keyless signer takes an HTTPTransport and a RetryPolicy: a backend that imports
// FleetTokens uses them without importing FleetAuthHTTP itself.
@_exported import FleetAuthHTTP
