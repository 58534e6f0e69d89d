import FleetServerSupport
import Hummingbird

/// A create request that passed every check that needs no stored state.
struct CheckedCreation<Resource: FleetResource> {
    /// The new resource's id.
    let id: String
    /// The new resource, as the body gave it.
    var resource: Resource
}

/// An update request that passed every check that needs no stored state.
struct CheckedUpdate<Resource: FleetResource> {
    /// The resource's id.
    let id: String
    /// The body, whose `fields` are to be set.
    var resource: Resource
    /// The fields the `updateMask` names.
    let fields: Set<Resource.Field>
    /// The permission decision (a driver's trip is checked again where the trip is).
    let decision: AccessDecision
}

/// The checks create and update requests share, in the order the API promises: permission
/// (403), then the request itself (400); the resource is looked up (404) by the caller.
extension RouteAccess {
    /// Checks `POST …?{idQueryParameter}=` with a `Resource` body.
    func checkedCreation<Resource: FleetResource>(
        of _: Resource.Type, _ request: Request, _ context: FleetEngineRequestContext
    ) async throws -> CheckedCreation<Resource> {
        let id = request.uri.queryParameters.get(Resource.idQueryParameter) ?? ""
        _ = try authorize(Resource.creation(id: id), context)
        try Self.requireValidID(id, "the \(Resource.idQueryParameter) query parameter")
        let resource = try await ProtoJSONBody.decode(Resource.self, from: request, quickReader: Resource.quicklyRead)
        let name = Resource.resourceName(provider: try Self.pathParameter("provider", context), id: id)
        try Self.validate { () throws(InvalidArgument) in
            try ResourceName.check(resource.name, matches: name)
            try resource.validateForCreation()
        }
        return CheckedCreation(id: id, resource: resource)
    }

    /// Checks `PUT …/{id}?updateMask=` with a `Resource` body; `authorized` runs right after
    /// the permission decision, for checks that need the stored resource (and may throw 403).
    func checkedUpdate<Resource: FleetResource>(
        of _: Resource.Type, _ request: Request, _ context: FleetEngineRequestContext,
        authorized: (_ id: String, AccessDecision) async throws -> Void = { _, _ in }
    ) async throws -> CheckedUpdate<Resource> {
        let id = try Self.pathParameter(Resource.idPathParameter, context)
        let decision = try authorize(Resource.update(id: id), context)
        try await authorized(id, decision)
        try Self.requireValidID(id, "the \(Resource.idPathParameter) id")
        var fields: Set<Resource.Field> = []
        try Self.validate { () throws(InvalidArgument) in
            fields = try FieldMask.parse(request.uri.queryParameters.get("updateMask"))
            try (decision.grant ?? .full).checkWritable(fields)
        }
        let resource = try await ProtoJSONBody.decode(Resource.self, from: request, quickReader: Resource.quicklyRead)
        let name = Resource.resourceName(provider: try Self.pathParameter("provider", context), id: id)
        try Self.validate { () throws(InvalidArgument) in
            try ResourceName.check(resource.name, matches: name)
            try resource.validateUpdate(of: fields)
        }
        return CheckedUpdate(id: id, resource: resource, fields: fields, decision: decision)
    }
}
