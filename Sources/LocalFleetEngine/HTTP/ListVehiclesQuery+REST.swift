import Hummingbird
import ServerHTTP

extension ListVehiclesQuery {
    /// The query of `GET …/vehicles?…`, as Google's REST mapping gives it: one parameter per
    /// field, in camelCase or snake_case, repeated fields repeated, enums by name, durations as
    /// `30s`, enums by name or number. Unknown parameters are refused, as unknown JSON fields are.
    init(query parameters: Parameters) throws(APIError) {
        self.init()
        for (rawName, rawValue) in parameters {
            let name = FieldMask.camelCase(String(rawName)), value = String(rawValue)
            switch name {
            case "$alt": continue  // Google's system parameter, for the answer's encoding
            case "pageSize": pageSize = try Self.integer(value, name)
            case "pageToken": pageToken = value
            case "minimumCapacity": minimumCapacity = try Self.integer(value, name)
            case "tripTypes": tripTypes.append(try Self.enumValue(value, name))
            case "maximumStaleness": maximumStaleness = try Self.duration(value, name)
            case "vehicleTypeCategories": vehicleTypeCategories.append(try Self.enumValue(value, name))
            case "requiredAttributes": requiredAttributes.append(value)
            case "requiredOneOfAttributes": requiredOneOfAttributes.append(value)
            case "requiredOneOfAttributeSets": requiredOneOfAttributeSets.append(value)
            case "vehicleState": vehicleState = try Self.enumValue(value, name) as VehicleState
            case "onTripOnly":
                guard let flag = Bool(value) else { throw .invalidArgument("onTripOnly is '\(value)'; it must be true or false") }
                onTripOnly = flag
            case "filter", "viewport.low.latitude", "viewport.low.longitude", "viewport.high.latitude", "viewport.high.longitude":
                throw .invalidArgument("\(name) is not supported by the local Fleet Engine's vehicle listing yet")
            default:
                throw .invalidArgument("query parameter '\(rawName)' is not a ListVehicles field")
            }
        }
    }

    /// An int32 field, as the proto has it.
    private static func integer(_ text: String, _ name: String) throws(APIError) -> Int {
        guard let value = Int32(text) else { throw .invalidArgument("\(name) is '\(text)'; it must be a whole number of 32 bits") }
        return Int(value)
    }

    /// The case named `text`, or numbered `text` in the .proto (as proto3 JSON takes enums).
    private static func enumValue<Value: NumberedProtoEnum>(_ text: String, _ name: String) throws(APIError) -> Value {
        if let number = Int(text), let value = Value.protoNumbers.first(where: { $0.value == number && number != 0 })?.key { return value }
        guard let value = Value(rawValue: text) else {
            throw .invalidArgument("\(name) is '\(text)', which is not one of \(Value.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    private static func duration(_ text: String, _ name: String) throws(APIError) -> Duration {
        guard let parsed = ProtoDuration(text: text) else {
            throw .invalidArgument("\(name) is '\(text)'; it must be seconds such as 30s or 1.5s")
        }
        return parsed.duration
    }
}
