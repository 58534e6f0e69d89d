import FleetEngineProtos

/// ListTasks: a page of tasks by id, passing the request's filter. A filter that requires a
/// `delivery_vehicle_id`, a `tracking_id` or a `state` reads the tasks of that value from an
/// index (the smallest, when it requires several), so that a page costs what it returns and
/// what it skips there, not the fleet's every task; and the total of a filter that is one such
/// comparison is the index's count.
enum TaskListing {
    /// The fields a filter may name (snake_case, as Google's guides write them, or camelCase),
    /// besides `attributes.KEY`.
    static let fields = [
        "state", "task_outcome", "type", "delivery_vehicle_id", "tracking_id", "task_outcome_location_source",
    ]

    /// The fields the tasks are indexed by, as filters are written once read (camelCase).
    static let indexedFields = ["deliveryVehicleId", "trackingId", "state"]

    /// The request's filter, checked against ``fields``, its fields in camelCase.
    static func filter(of request: ListTasksRequest) throws(InvalidArgument) -> ListFilter? {
        let known = Set(fields.map(FieldMask.camelCase))
        return try ListFilter.parse(request.filter) { field in
            known.contains(FieldMask.camelCase(field))
                || (field.hasPrefix("attributes.") && field.count > "attributes.".count)
                ? nil
                : "the local Fleet Engine filters tasks by \(fields.joined(separator: ", ")) and attributes.KEY only"
        }?.renamingFields { $0.hasPrefix("attributes.") ? $0 : FieldMask.camelCase($0) }
    }

    /// The page the validated `request` asks for, with `filter` (its parsed filter), and the
    /// number of tasks that pass the filter on every page.
    static func page(_ request: ListTasksRequest, filter: ListFilter?, in deliveries: SavedDeliveries)
        throws(InvalidArgument) -> ListTasksResponse
    {
        let candidates = filter?.narrowestIDs(in: deliveries.taskIndex, fields: indexedFields) ?? deliveries.taskIDs
        let page = try Pages.page(
            of: candidates, size: Int(request.pageSize), token: request.pageToken,
            everyCandidatePasses: filter == nil || filter?.isSingleEquality(on: indexedFields) == true
        ) { id in
            deliveries.tasks[id].flatMap { task in filter?.matches { value(of: $0, in: task) } ?? true ? task : nil }
        }
        return .with { response in
            response.tasks = page.items
            response.nextPageToken = page.nextPageToken
            response.totalSize = page.totalSize
        }
    }

    /// The value of filter field `field` in `task`, as a filter writes it (enums by name), or
    /// `nil` when the task has none or `field` is not one a filter may name.
    static func value(of field: String, in task: DeliveryTask) -> String? {
        if field.hasPrefix("attributes.") {
            let key = field.dropFirst("attributes.".count)
            return task.attributes.first { $0.key == key }.map(\.filterText)
        }
        switch FieldMask.camelCase(field) {
        case "state": return task.state.filterName
        case "taskOutcome": return task.taskOutcome.filterName
        case "type": return task.type.filterName
        case "deliveryVehicleId": return task.deliveryVehicleID
        case "trackingId": return task.trackingID
        case "taskOutcomeLocationSource": return task.taskOutcomeLocationSource.filterName
        default: return nil
        }
    }
}

extension DeliveryTask.State {
    var filterName: String {
        switch self {
        case .open: "OPEN"
        case .closed: "CLOSED"
        case .unspecified, .UNRECOGNIZED: "STATE_UNSPECIFIED"
        }
    }
}

extension DeliveryTask.TaskOutcome {
    var filterName: String {
        switch self {
        case .succeeded: "SUCCEEDED"
        case .failed: "FAILED"
        case .unspecified, .UNRECOGNIZED: "TASK_OUTCOME_UNSPECIFIED"
        }
    }
}

extension DeliveryTask.TypeEnum {
    var filterName: String {
        switch self {
        case .pickup: "PICKUP"
        case .delivery: "DELIVERY"
        case .scheduledStop: "SCHEDULED_STOP"
        case .unavailable: "UNAVAILABLE"
        case .unspecified, .UNRECOGNIZED: "TYPE_UNSPECIFIED"
        }
    }
}

extension DeliveryTask.TaskOutcomeLocationSource {
    var filterName: String {
        switch self {
        case .provider: "PROVIDER"
        case .lastVehicleLocation: "LAST_VEHICLE_LOCATION"
        case .unspecified, .UNRECOGNIZED: "TASK_OUTCOME_LOCATION_SOURCE_UNSPECIFIED"
        }
    }
}
