import FleetEngineProtos
import NIOHTTP1
import SwiftProtobuf

/// A resource whose driver app updates it many times a second, with its location: an on-demand
/// vehicle, or a delivery vehicle. Both doors answer its update without a task
/// (``FleetEngineCore/updateWithoutWaiting(_:completion:)``, ``LocationUpdateRoute``,
/// ``LocationUpdateOnLoop``), the same way for both kinds.
protocol LocationReporting: FleetResource, SwiftProtobuf.Message {
    /// The API method of the update, for the log and `/metrics`, e.g. `UpdateVehicle`.
    static var updateMethod: String { get }
    /// The update's REST method: `PUT` for vehicles, `PATCH` for delivery vehicles.
    static var restUpdateMethod: HTTPMethod { get }
    /// The collection of REST paths and resource names, e.g. `vehicles`.
    static var collection: String { get }
    /// Checks the update of resource `id` and accepts its write, without waiting for it to be
    /// saved: the core's UpdateVehicle or UpdateDeliveryVehicle up to its acceptance.
    static func acceptUpdate(
        in core: FleetEngineCore, _ call: FleetCall, id: String, updateMask: String?, readBody: () throws -> Self
    ) throws -> Accepted<Self>
}

extension Vehicle: LocationReporting {
    static let updateMethod = "UpdateVehicle"
    static let restUpdateMethod = HTTPMethod.PUT
    static let collection = "vehicles"
    static func acceptUpdate(
        in core: FleetEngineCore, _ call: FleetCall, id: String, updateMask: String?, readBody: () throws -> Vehicle
    ) throws -> Accepted<Vehicle> {
        try core.acceptVehicleUpdate(call, vehicleID: id, updateMask: updateMask, readBody: readBody)
    }
}

extension DeliveryVehicle: LocationReporting {
    static let updateMethod = "UpdateDeliveryVehicle"
    static let restUpdateMethod = HTTPMethod.PATCH
    static let collection = "deliveryVehicles"
    static func acceptUpdate(
        in core: FleetEngineCore, _ call: FleetCall, id: String, updateMask: String?,
        readBody: () throws -> DeliveryVehicle
    ) throws -> Accepted<DeliveryVehicle> {
        try core.acceptDeliveryVehicleUpdate(call, vehicleID: id, updateMask: updateMask, readBody: readBody)
    }
}

/// The gRPC request of a ``LocationReporting`` resource's update.
protocol LocationUpdateRequest: SwiftProtobuf.Message {
    associatedtype Resource: LocationReporting
    /// The method, `service/method`.
    static var fullyQualifiedMethod: String { get }
    /// The resource's name, `providers/{p}/{collection}/{id}`.
    var resourceName: String { get }
    /// The resource's new values.
    var resource: Resource { get }
    /// The update mask's paths, comma-separated (`nil` without a mask).
    var updateMaskPaths: String? { get }
}

extension Maps_Fleetengine_V1_UpdateVehicleRequest: LocationUpdateRequest {
    static var fullyQualifiedMethod: String {
        Maps_Fleetengine_V1_VehicleService.Method.UpdateVehicle.descriptor.fullyQualifiedMethod
    }
    var resourceName: String { name }
    var resource: Vehicle { vehicle }
    var updateMaskPaths: String? { updateMask.joinedPaths }
}

extension Maps_Fleetengine_Delivery_V1_UpdateDeliveryVehicleRequest: LocationUpdateRequest {
    static var fullyQualifiedMethod: String {
        Maps_Fleetengine_Delivery_V1_DeliveryService.Method.UpdateDeliveryVehicle.descriptor.fullyQualifiedMethod
    }
    var resourceName: String { deliveryVehicle.name }
    var resource: DeliveryVehicle { deliveryVehicle }
    var updateMaskPaths: String? { updateMask.joinedPaths }
}
