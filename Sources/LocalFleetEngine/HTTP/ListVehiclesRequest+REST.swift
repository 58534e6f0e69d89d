import FleetAuthCodecs
import FleetAuthServerHTTP
import FleetTokens
import Hummingbird
import SwiftProtobuf

extension ListVehiclesRequest {
    /// The request of `GET …/vehicles?…`, as Google's REST mapping gives it: one parameter per
    /// field, in camelCase or snake_case, repeated fields repeated, durations as `30s`, enums by
    /// name or number. Unknown parameters are refused, as unknown JSON fields are.
    init(query parameters: Parameters) throws(APIError) {
        self.init()
        for (rawName, rawValue) in parameters {
            let name = FieldMask.camelCase(String(rawName)), value = String(rawValue)
            switch name {
            case "$alt": continue  // Google's system parameter, for the answer's encoding
            case "pageSize": pageSize = try Self.integer(value, name)
            case "pageToken": pageToken = value
            case "minimumCapacity": minimumCapacity = .init(try Self.integer(value, name))
            case "tripTypes": tripTypes += try Self.enumValue(value, name).tripTypes
            case "maximumStaleness": maximumStaleness = try Self.duration(value, name)
            case "vehicleTypeCategories": vehicleTypeCategories += try Self.enumValue(value, name).vehicleTypeCategories
            case "requiredAttributes": requiredAttributes.append(value)
            case "requiredOneOfAttributes": requiredOneOfAttributes.append(value)
            case "requiredOneOfAttributeSets": requiredOneOfAttributeSets.append(value)
            case "vehicleState":
                vehicleState = try Self.enumValue(value, name).vehicleState
                // Its first value is proto3's "not set": no state a listing can filter by. (The
                // rules refuse it in the repeated filters, over gRPC too.)
                guard !vehicleState.isUnset else {
                    throw .invalidArgument("vehicleState is '\(value)', which is not a state to filter by")
                }
            case "onTripOnly":
                guard let flag = Bool(value) else {
                    throw .invalidArgument("onTripOnly is '\(value)'; it must be true or false")
                }
                onTripOnly = flag
            case "filter", "viewport.low.latitude", "viewport.low.longitude", "viewport.high.latitude",
                "viewport.high.longitude":
                throw .invalidArgument("\(name) is not supported by the local Fleet Engine's vehicle listing yet")
            default:
                throw .invalidArgument("query parameter '\(rawName)' is not a ListVehicles field")
            }
        }
    }

    /// An int32 field, as the proto has it.
    private static func integer(_ text: String, _ name: String) throws(APIError) -> Int32 {
        guard let value = Int32(text) else {
            throw .invalidArgument("\(name) is '\(text)'; it must be a whole number of 32 bits")
        }
        return value
    }

    /// A request with only the enum field `name` set to `text`, a value's name or number, read
    /// by swift-protobuf as it reads the field in a JSON body (a repeated field gets one value).
    private static func enumValue(_ text: String, _ name: String) throws(APIError) -> ListVehiclesRequest {
        var json = Array("{\"\(name)\":".utf8)
        let repeated = name != "vehicleState"
        if repeated { json.append(UInt8(ascii: "[")) }
        if let number = Int32(text) { json += Array(String(number).utf8) } else { JSONString.append(text, to: &json) }
        json += Array((repeated ? "]}" : "}").utf8)
        guard let request = try? ListVehiclesRequest(jsonUTF8Bytes: json) else {
            throw .invalidArgument("\(name) is '\(text)', which is not a value of Fleet Engine's API")
        }
        return request
    }

    private static func duration(_ text: String, _ name: String) throws(APIError) -> Google_Protobuf_Duration {
        guard let parsed = ProtoDuration(text: text) else {
            throw .invalidArgument("\(name) is '\(text)'; it must be seconds such as 30s or 1.5s")
        }
        return parsed.message
    }
}
