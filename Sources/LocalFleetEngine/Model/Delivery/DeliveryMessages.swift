import FleetEngineProtos

// Shorter spellings of the delivery API's generated messages (`maps.fleetengine.delivery.v1`),
// the model of the engine's scheduled tasks as `EngineMessages.swift` names the on-demand ones.
// `DeliveryTask` is Google's `Task`, renamed so that it is never taken for Swift's.

/// A vehicle that carries out tasks (`DeliveryVehicle`).
package typealias DeliveryVehicle = Maps_Fleetengine_Delivery_V1_DeliveryVehicle
/// Where a delivery vehicle is and how it moves (`DeliveryVehicleLocation`).
package typealias DeliveryVehicleLocation = Maps_Fleetengine_Delivery_V1_DeliveryVehicleLocation
/// One leg of a delivery vehicle's remaining route, ending at a stop (`VehicleJourneySegment`).
package typealias VehicleJourneySegment = Maps_Fleetengine_Delivery_V1_VehicleJourneySegment
/// A place where a delivery vehicle carries out tasks (`VehicleStop`).
package typealias VehicleStop = Maps_Fleetengine_Delivery_V1_VehicleStop
/// A task to be carried out at one place (`maps.fleetengine.delivery.v1.Task`).
package typealias DeliveryTask = Maps_Fleetengine_Delivery_V1_Task
/// What a consumer may see of the task of a tracking id (`TaskTrackingInfo`).
package typealias TaskTrackingInfo = Maps_Fleetengine_Delivery_V1_TaskTrackingInfo
/// A point with its source (`LocationInfo`).
package typealias LocationInfo = Maps_Fleetengine_Delivery_V1_LocationInfo
/// ListTasks' request; REST gives its fields as query parameters.
package typealias ListTasksRequest = Maps_Fleetengine_Delivery_V1_ListTasksRequest
/// One page of ListTasks' answer.
package typealias ListTasksResponse = Maps_Fleetengine_Delivery_V1_ListTasksResponse
/// ListDeliveryVehicles' request; REST gives its fields as query parameters.
package typealias ListDeliveryVehiclesRequest = Maps_Fleetengine_Delivery_V1_ListDeliveryVehiclesRequest
/// One page of ListDeliveryVehicles' answer.
package typealias ListDeliveryVehiclesResponse = Maps_Fleetengine_Delivery_V1_ListDeliveryVehiclesResponse

extension DeliveryTask {
    /// The vehicle the task is assigned to, or `nil`.
    var assignedVehicleID: String? { deliveryVehicleID.isEmpty ? nil : deliveryVehicleID }
}
