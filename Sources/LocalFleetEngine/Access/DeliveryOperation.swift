/// What a request to the delivery API (`maps.fleetengine.delivery.v1.DeliveryService`) asks to
/// do, and to which resource: the input of ``AccessPolicy``'s delivery table.
package enum DeliveryOperation: Sendable, Hashable, CustomStringConvertible {
    /// CreateDeliveryVehicle: `POST /v1/providers/{p}/deliveryVehicles?deliveryVehicleId=`.
    case createDeliveryVehicle(vehicleID: String)
    /// GetDeliveryVehicle: `GET /v1/providers/{p}/deliveryVehicles/{v}`.
    case getDeliveryVehicle(vehicleID: String)
    /// UpdateDeliveryVehicle: `PATCH /v1/providers/{p}/deliveryVehicles/{v}`, of the fields
    /// the update mask names.
    case updateDeliveryVehicle(vehicleID: String, fields: Set<DeliveryVehicleField>)
    /// DeleteDeliveryVehicle: `DELETE /v1/providers/{p}/deliveryVehicles/{v}`.
    case deleteDeliveryVehicle(vehicleID: String)
    /// ListDeliveryVehicles: `GET /v1/providers/{p}/deliveryVehicles`.
    case listDeliveryVehicles
    /// CreateTask: `POST /v1/providers/{p}/tasks?taskId=`.
    case createTask(taskID: String)
    /// BatchCreateTasks: `POST /v1/providers/{p}/tasks:batchCreate`, of these task ids.
    case batchCreateTasks(taskIDs: [String])
    /// GetTask: `GET /v1/providers/{p}/tasks/{t}`.
    case getTask(taskID: String)
    /// UpdateTask: `PATCH /v1/providers/{p}/tasks/{t}`.
    case updateTask(taskID: String)
    /// DeleteTask: `DELETE /v1/providers/{p}/tasks/{t}`.
    case deleteTask(taskID: String)
    /// ListTasks: `GET /v1/providers/{p}/tasks`.
    case listTasks
    /// GetTaskTrackingInfo: `GET /v1/providers/{p}/taskTrackingInfo/{trackingId}`.
    case getTaskTrackingInfo(trackingID: String)

    /// The operation in words, e.g. `get delivery vehicle 'dv1'`.
    package var description: String {
        switch self {
        case .createDeliveryVehicle(let id): "create delivery vehicle '\(id)'"
        case .getDeliveryVehicle(let id): "get delivery vehicle '\(id)'"
        case .updateDeliveryVehicle(let id, let fields):
            fields == [.lastLocation]
                ? "update the location of delivery vehicle '\(id)'" : "update delivery vehicle '\(id)'"
        case .deleteDeliveryVehicle(let id): "delete delivery vehicle '\(id)'"
        case .listDeliveryVehicles: "list delivery vehicles"
        case .createTask(let id): "create task '\(id)'"
        case .batchCreateTasks(let ids): "create \(ids.count) tasks at once"
        case .getTask(let id): "get task '\(id)'"
        case .updateTask(let id): "update task '\(id)'"
        case .deleteTask(let id): "delete task '\(id)'"
        case .listTasks: "list tasks"
        case .getTaskTrackingInfo(let id): "get the tracking info of '\(id)'"
        }
    }

    /// Whether the operation changes something.
    package var isWrite: Bool {
        switch self {
        case .createDeliveryVehicle, .updateDeliveryVehicle, .deleteDeliveryVehicle, .createTask, .batchCreateTasks,
            .updateTask, .deleteTask:
            true
        case .getDeliveryVehicle, .listDeliveryVehicles, .getTask, .listTasks, .getTaskTrackingInfo:
            false
        }
    }
}
