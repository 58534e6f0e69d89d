import FleetAuthServerHTTP
import Hummingbird

extension ListVehiclesRequest {
    /// The request of `GET …/vehicles?…`, read by ``QueryMessage`` as every list request's
    /// query is: one parameter per field, in camelCase or snake_case, repeated fields one or
    /// more times, durations as `30s`, enums by name or number. Unknown parameters are refused,
    /// as unknown JSON fields are; `filter` and `viewport` are refused by the listing's rules.
    init(query parameters: Parameters) throws(APIError) {
        self = try QueryMessage.decode(
            ListVehiclesRequest.self, from: parameters,
            shapes: [
                "tripTypes": [.list, .enumeration], "vehicleTypeCategories": [.list, .enumeration],
                "requiredAttributes": .list, "requiredOneOfAttributes": .list, "requiredOneOfAttributeSets": .list,
                "vehicleState": .enumeration, "onTripOnly": .boolean,
            ])
        // The state's first value is proto3's "not set": no state a listing can filter by, and
        // one a query cannot send without meaning it.
        if vehicleState.isUnset,
            let given = parameters.lazy.filter({ FieldMask.camelCase(String($0.key)) == "vehicleState" }).first
        {
            throw .invalidArgument("vehicleState is '\(given.value)', which is not a state to filter by")
        }
    }
}
