import FleetAuthCodecs
import FleetTokens
import Foundation
import SwiftProtobuf

/// The whole state of a local Fleet Engine as one JSON document: its vehicles, trips, delivery
/// vehicles and tasks, each in Fleet Engine's own proto3 JSON, sorted by id, so that the same
/// state always gives the same bytes. What the console's export and import and `fleetauth
/// fleet-engine export|import` read and write: test fixtures, and state to attach to a bug report.
///
/// ```json
/// {"format":"fleetauth-fleet-engine","version":1,"provider":"my-fleet",
///  "vehicles":[{"name":"providers/my-fleet/vehicles/v-1",…}],"trips":[…],"deliveryVehicles":[…],"tasks":[…]}
/// ```
///
/// A document imports into an engine of any provider: each resource keeps the id at the end of
/// its `name` and takes the importing engine's provider.
package enum FleetDocument {
    /// The `format` every document names.
    package static let format = "fleetauth-fleet-engine"
    /// The version this engine writes and reads.
    package static let version = 1
    /// Why an engine that has resources refuses an import.
    package static let notEmpty =
        "the engine already has vehicles, trips, delivery vehicles or tasks; import only into an empty engine"

    /// The largest document an import reads.
    package static let maximumBytes = 256 * 1024 * 1024

    /// The document of `snapshot`, the state of `provider`.
    package static func encode(_ snapshot: ProviderSnapshot, provider: String) throws -> Data {
        var text = #"{"format":"\#(format)","version":\#(version),"provider":"# + JSONString.quoted(provider)
        func section<Resource: SwiftProtobuf.Message>(
            _ key: String, _ resources: [String: Resource], name: (String) -> String,
            named: (inout Resource, String) -> Void
        ) throws {
            text += #","\#(key)":["#
            for (index, id) in resources.keys.sorted().enumerated() {
                var resource = resources[id]!
                named(&resource, name(id))
                if index > 0 { text += "," }
                text += try resource.jsonString()
            }
            text += "]"
        }
        try section(
            "vehicles", snapshot.vehicles, name: { ResourceName.vehicle(provider: provider, id: $0) },
            named: { $0.name = $1 })
        try section(
            "trips", snapshot.trips, name: { ResourceName.trip(provider: provider, id: $0) }, named: { $0.name = $1 })
        try section(
            "deliveryVehicles", snapshot.deliveryVehicles,
            name: { ResourceName.deliveryVehicle(provider: provider, id: $0) }, named: { $0.name = $1 })
        try section(
            "tasks", snapshot.tasks, name: { ResourceName.task(provider: provider, id: $0) }, named: { $0.name = $1 })
        text += "}\n"
        return Data(text.utf8)
    }

    /// The state `data` holds, every resource renamed into `provider`.
    ///
    /// - Throws: ``InvalidArgument`` naming what is wrong: not a document of this format and
    ///   version, a resource that Fleet Engine's JSON does not describe, a name without an id,
    ///   an id given twice, a position that is not on the earth, or a trip or task whose
    ///   vehicle the document lacks.
    package static func decode(_ data: Data, provider: String) throws(InvalidArgument) -> ProviderSnapshot {
        guard data.count <= maximumBytes else {
            throw InvalidArgument("the document is larger than \(maximumBytes) bytes")
        }
        guard let top = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw InvalidArgument("the document is not a JSON object")
        }
        guard top["format"] as? String == format else {
            throw InvalidArgument(#"the document's "format" is not "\#(format)""#)
        }
        guard (top["version"] as? NSNumber)?.intValue == version else {
            throw InvalidArgument(#"the document's "version" is not \#(version)"#)
        }
        let known: Set<String> = ["format", "version", "provider", "vehicles", "trips", "deliveryVehicles", "tasks"]
        if let unknown = top.keys.sorted().first(where: { !known.contains($0) }) {
            throw InvalidArgument("the document has an unknown field \"\(unknown)\"")
        }
        var snapshot = ProviderSnapshot()
        snapshot.vehicles = try resources(top, "vehicles", as: Vehicle.self, collection: "vehicles", name: \.name) {
            $0.name = ResourceName.vehicle(provider: provider, id: $1)
            $0.currentTrips = []
        }
        snapshot.trips = try resources(top, "trips", as: Trip.self, collection: "trips", name: \.name) {
            $0.name = ResourceName.trip(provider: provider, id: $1)
        }
        snapshot.deliveryVehicles = try resources(
            top, "deliveryVehicles", as: DeliveryVehicle.self, collection: "deliveryVehicles", name: \.name
        ) {
            $0.name = ResourceName.deliveryVehicle(provider: provider, id: $1)
        }
        snapshot.tasks = try resources(top, "tasks", as: DeliveryTask.self, collection: "tasks", name: \.name) {
            $0.name = ResourceName.task(provider: provider, id: $1)
        }
        try checkPositions(of: snapshot)
        try checkAssignments(of: snapshot)
        return snapshot
    }

    /// Refuses a position that is not on the earth: positions follow the rules of live writes,
    /// since the spatial index takes only real ones.
    private static func checkPositions(of snapshot: ProviderSnapshot) throws(InvalidArgument) {
        for (id, vehicle) in snapshot.vehicles where vehicle.hasLastLocation {
            try vehicle.lastLocation.validate(field: "vehicle '\(id)'.lastLocation")
        }
        for (id, vehicle) in snapshot.deliveryVehicles where vehicle.hasLastLocation {
            try vehicle.lastLocation.validate(field: "delivery vehicle '\(id)'.lastLocation")
        }
        for (id, trip) in snapshot.trips {
            if trip.hasPickupPoint { try trip.pickupPoint.validate(field: "trip '\(id)'.pickupPoint") }
            if trip.hasDropoffPoint { try trip.dropoffPoint.validate(field: "trip '\(id)'.dropoffPoint") }
        }
        for (id, task) in snapshot.tasks {
            if task.hasPlannedLocation, task.plannedLocation.hasPoint {
                try task.plannedLocation.point.validate(field: "task '\(id)'.plannedLocation.point")
            }
            if task.hasTaskOutcomeLocation, task.taskOutcomeLocation.hasPoint {
                try task.taskOutcomeLocation.point.validate(field: "task '\(id)'.taskOutcomeLocation.point")
            }
        }
    }

    /// Refuses a trip or task assigned to a vehicle the document lacks.
    private static func checkAssignments(of snapshot: ProviderSnapshot) throws(InvalidArgument) {
        for (id, trip) in snapshot.trips where !trip.vehicleID.isEmpty && snapshot.vehicles[trip.vehicleID] == nil {
            throw InvalidArgument(
                "trip '\(id)' is assigned to vehicle '\(trip.vehicleID)', which the document does not have")
        }
        for (id, task) in snapshot.tasks
        where !task.deliveryVehicleID.isEmpty && snapshot.deliveryVehicles[task.deliveryVehicleID] == nil {
            throw InvalidArgument(
                "task '\(id)' is assigned to delivery vehicle '\(task.deliveryVehicleID)', which the document does not have"
            )
        }
    }

    /// The resources of section `key`, by the id at the end of their names.
    private static func resources<Resource: SwiftProtobuf.Message>(
        _ top: [String: Any], _ key: String, as type: Resource.Type, collection: String,
        name: KeyPath<Resource, String>,
        renamed rename: (inout Resource, String) -> Void
    ) throws(InvalidArgument) -> [String: Resource] {
        guard let value = top[key] else { return [:] }
        guard let items = value as? [Any] else { throw InvalidArgument("the document's \"\(key)\" is not a list") }
        var resources: [String: Resource] = [:]
        for (index, item) in items.enumerated() {
            let place = "\(key)[\(index)]"
            guard JSONSerialization.isValidJSONObject(item),
                let json = try? JSONSerialization.data(withJSONObject: item)
            else {
                throw InvalidArgument("\(place) is not a JSON object")
            }
            var resource: Resource
            do {
                resource = try Resource(jsonUTF8Data: json)
            } catch {
                throw InvalidArgument("\(place) is not a Fleet Engine \(collection) resource: \(error)")
            }
            let parts = resource[keyPath: name].split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 4, parts[0] == "providers", parts[2] == Substring(collection), !parts[3].isEmpty else {
                throw InvalidArgument(
                    "\(place) has name '\(resource[keyPath: name])', not providers/{provider}/\(collection)/{id}")
            }
            let id = String(parts[3])
            if let problem = FleetEngineIdentifier.problem(with: id) {
                throw InvalidArgument("\(place)'s id \(problem)")
            }
            guard resources[id] == nil else { throw InvalidArgument("\(key) has '\(id)' twice") }
            rename(&resource, id)
            resources[id] = resource
        }
        return resources
    }
}
