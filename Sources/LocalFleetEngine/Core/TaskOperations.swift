import FleetAuthServerHTTP
import FleetEngineProtos
import FleetTokens

/// DeliveryService's task methods, checked in the on-demand order: the permission (403), the
/// request (400), the task (404), the rules that need stored state (400, 409).
extension FleetEngineCore {
    /// The most tasks one BatchCreateTasks may create.
    static let maximumBatch = 500

    /// CreateTask: task `taskID` from the body `readBody` gives, once saved.
    func createTask(_ call: FleetCall, taskID: String, readBody: () throws -> DeliveryTask) async throws -> DeliveryTask
    {
        let task = try checkedCreation(of: DeliveryTask.self, call, id: taskID, readBody: readBody)
        let created = try await state.createTasks([(taskID, task)]).saved()
        return created[0]
    }

    /// BatchCreateTasks: every task of the request `readBody` gives, all or none, once saved.
    /// Each request's `parent` and `header` must be empty or the batch's own.
    func batchCreateTasks(
        _ call: FleetCall, readBody: () throws -> Maps_Fleetengine_Delivery_V1_BatchCreateTasksRequest
    ) async throws -> Maps_Fleetengine_Delivery_V1_BatchCreateTasksResponse {
        let batch = try readBody()
        _ = try authorize(.delivery(.batchCreateTasks(taskIDs: batch.requests.map(\.taskID))), call)
        let parent = "providers/\(call.provider)"
        try Self.validate { () throws(InvalidArgument) in
            try batch.requireKnownFields("the request")
            guard !batch.requests.isEmpty else {
                throw InvalidArgument("requests is required: give 1 to \(Self.maximumBatch) tasks")
            }
            guard batch.requests.count <= Self.maximumBatch else {
                throw InvalidArgument(
                    "requests has \(batch.requests.count) tasks; at most \(Self.maximumBatch) may be created at once")
            }
            for (index, request) in batch.requests.enumerated() {
                let field = "requests[\(index)]"
                guard request.parent.isEmpty || request.parent == parent else {
                    throw InvalidArgument(
                        "\(field).parent is '\(request.parent)'; it must be empty or the batch's parent, '\(parent)'")
                }
                guard !request.hasHeader || !batch.hasHeader || request.header == batch.header else {
                    throw InvalidArgument(
                        "\(field).header differs from the batch's header; leave it empty or give the same")
                }
                guard !request.taskID.isEmpty else { throw InvalidArgument("\(field).taskId is required") }
                if let problem = FleetEngineIdentifier.problem(with: request.taskID) {
                    throw InvalidArgument("\(field).taskId \(problem)")
                }
                do throws(InvalidArgument) {
                    try ResourceName.check(
                        request.task.name,
                        matches: DeliveryTask.resourceName(provider: call.provider, id: request.taskID))
                    try request.task.validateForCreation()
                } catch {
                    throw InvalidArgument("\(field): \(error.description)")
                }
            }
        }
        let created = try await state.createTasks(batch.requests.map { ($0.taskID, $0.task) }).saved()
        return .with { $0.tasks = created }
    }

    /// GetTask.
    func getTask(_ call: FleetCall, taskID: String) throws -> DeliveryTask {
        _ = try authorize(.delivery(.getTask(taskID: taskID)), call)
        try Self.requireValidID(taskID, "the task id")
        guard let task = state.task(taskID) else { throw APIError.notFound("task '\(taskID)' does not exist") }
        return task
    }

    /// UpdateTask: the fields `updateMask` names, from the body `readBody` gives, once saved.
    func updateTask(_ call: FleetCall, taskID: String, updateMask: String?, readBody: () throws -> DeliveryTask)
        async throws -> DeliveryTask
    {
        let update = try checkedUpdate(
            of: DeliveryTask.self, call, id: taskID, updateMask: updateMask, readBody: readBody)
        return try await state.updateTask(taskID, with: update.resource, fields: update.fields).saved()
    }

    /// DeleteTask: removes a task that is closed or on no vehicle, once saved.
    func deleteTask(_ call: FleetCall, taskID: String) async throws {
        _ = try authorize(.delivery(.deleteTask(taskID: taskID)), call)
        try Self.requireValidID(taskID, "the task id")
        try await state.deleteTask(taskID).saved()
    }

    /// ListTasks: the page of tasks, by id, that pass the query `readQuery` gives.
    func listTasks(_ call: FleetCall, readQuery: () throws -> ListTasksRequest) throws -> ListTasksResponse {
        _ = try authorize(.delivery(.listTasks), call)
        let request = try readQuery()
        var filter: ListFilter?
        try Self.validate { () throws(InvalidArgument) in
            try request.requireKnownFields("the request")
            guard request.pageSize >= 0 else {
                throw InvalidArgument("pageSize is \(request.pageSize); it must not be negative")
            }
            filter = try TaskListing.filter(of: request)
        }
        do {
            return try state.listTasks(request, filter: filter)
        } catch {
            throw APIError.invalidArgument(error.description)
        }
    }

    /// GetTaskTrackingInfo: what a consumer may see of the task of `trackingID`. A consumer
    /// whose token names a task rather than a tracking id gets 403 for a tracking id whose task
    /// is not that one, existing or not.
    func getTaskTrackingInfo(_ call: FleetCall, trackingID: String) throws -> TaskTrackingInfo {
        let decision = try authorize(.delivery(.getTaskTrackingInfo(trackingID: trackingID)), call)
        try Self.requireValidID(trackingID, "the tracking id")
        let found = state.trackingInfo(trackingID, now: now())
        if case .denied(let rule) = decision.resolved(taskID: found?.taskID) { throw APIError.permissionDenied(rule) }
        guard let found else { throw APIError.notFound("no task has tracking id '\(trackingID)'") }
        return found.info
    }
}
