/// Fleet Engine resource names, `providers/{provider}/{collection}/{id}`.
package enum ResourceName {
    /// The name of vehicle `id` of `provider`.
    package static func vehicle(provider: String, id: String) -> String {
        "providers/\(provider)/vehicles/\(id)"
    }

    /// The name of trip `id` of `provider`.
    package static func trip(provider: String, id: String) -> String {
        "providers/\(provider)/trips/\(id)"
    }

    /// The name of delivery vehicle `id` of `provider`.
    package static func deliveryVehicle(provider: String, id: String) -> String {
        "providers/\(provider)/deliveryVehicles/\(id)"
    }

    /// The name of task `id` of `provider`.
    package static func task(provider: String, id: String) -> String {
        "providers/\(provider)/tasks/\(id)"
    }

    /// The name of the tracking info of `trackingID` of `provider`.
    package static func taskTrackingInfo(provider: String, trackingID: String) -> String {
        "providers/\(provider)/taskTrackingInfo/\(trackingID)"
    }
}

extension ResourceName {
    /// Refuses a body `name` that is set and differs from `expected`, the name the request
    /// path gives.
    package static func check(_ name: String, matches expected: String) throws(InvalidArgument) {
        guard !name.isEmpty, name != expected else { return }
        throw InvalidArgument("the body's name '\(name)' disagrees with the request path, which names '\(expected)'")
    }
}
