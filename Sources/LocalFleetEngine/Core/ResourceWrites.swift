import FleetAuthServerHTTP

/// An update that passed every check that needs no stored state.
struct CheckedUpdate<Resource: FleetResource> {
    /// The body, whose `fields` are to be set.
    var resource: Resource
    /// The fields the update mask names.
    let fields: Set<Resource.Field>
    /// The permission decision (a driver's trip is checked again where the trip is).
    let decision: AccessDecision
}

/// The checks creations and updates of vehicles and trips share, in the order the API
/// promises: permission (403), then the request itself (400); the resource is looked up (404)
/// by the caller. The body is read only once permission is granted, so that a refused caller
/// learns nothing about what its body would have been told.
extension FleetEngineCore {
    /// Checks the creation of resource `id` from the body `readBody` gives.
    func checkedCreation<Resource: FleetResource>(
        of _: Resource.Type, _ call: FleetCall, id: String, readBody: () throws -> Resource
    ) throws -> Resource {
        _ = try authorize(Resource.creation(id: id), call)
        try Self.requireValidID(id, Resource.idField)
        let resource = try readBody()
        let name = Resource.resourceName(provider: call.provider, id: id)
        try Self.validate { () throws(InvalidArgument) in
            try ResourceName.check(resource.name, matches: name)
            try resource.validateForCreation()
        }
        return resource
    }

    /// Checks the update of resource `id`'s fields named by `updateMask` (comma-separated, in
    /// camelCase or snake_case) from the body `readBody` gives; `authorized` runs right after the
    /// permission decision, for checks that need the stored resource (and may throw 403).
    func checkedUpdate<Resource: FleetResource>(
        of _: Resource.Type, _ call: FleetCall, id: String, updateMask: String?,
        authorized: (AccessDecision) throws -> Void = { _ in },
        readBody: () throws -> Resource
    ) throws -> CheckedUpdate<Resource> {
        let decision = try authorize(Resource.update(id: id, fields: FieldMask.named(updateMask)), call)
        try authorized(decision)
        try Self.requireValidID(id, "the \(Resource.kind) id")
        var fields: Set<Resource.Field> = []
        try Self.validate { () throws(InvalidArgument) in
            fields = try FieldMask.parse(updateMask)
        }
        let resource = try readBody()
        let name = Resource.resourceName(provider: call.provider, id: id)
        try Self.validate { () throws(InvalidArgument) in
            try ResourceName.check(resource.name, matches: name)
            try resource.validateUpdate(of: fields)
        }
        return CheckedUpdate(resource: resource, fields: fields, decision: decision)
    }
}
