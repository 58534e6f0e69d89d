import ServerHTTP
import SwiftProtobuf

/// A model enum whose cases are numbered in Fleet Engine's .proto files: how the doors
/// turn it into the generated enum of the same name and back.
protocol NumberedProtoEnum: ProtoEnum {
    /// Each case's number in the .proto.
    static var protoNumbers: [Self: Int] { get }
}

extension NumberedProtoEnum {
    /// The case of `value`; 400 naming `field` for a number the .proto does not define.
    init(proto value: some SwiftProtobuf.Enum, field: String) throws(APIError) {
        guard let found = Self.protoNumbers.first(where: { $0.value == value.rawValue })?.key else {
            let known = Self.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalidArgument("\(field) is \(value.rawValue), which is not one of \(known)")
        }
        self = found
    }

    /// The case of `value`, or `nil` for 0: proto3 cannot tell an unset enum field from its
    /// first value, and the engine takes it as unset.
    static func unlessUnset(_ value: some SwiftProtobuf.Enum, field: String) throws(APIError) -> Self? {
        value.rawValue == 0 ? nil : try Self(proto: value, field: field)
    }

    /// This case as the generated enum.
    func proto<Generated: SwiftProtobuf.Enum>() -> Generated {
        Generated(rawValue: Self.protoNumbers[self] ?? 0) ?? Generated()
    }
}

extension VehicleState: NumberedProtoEnum {
    static let protoNumbers: [VehicleState: Int] = [.unknown: 0, .offline: 1, .online: 2]
}

extension TripType: NumberedProtoEnum {
    static let protoNumbers: [TripType: Int] = [.unknown: 0, .shared: 1, .exclusive: 2]
}

extension VehicleType.Category: NumberedProtoEnum {
    static let protoNumbers: [VehicleType.Category: Int] = [
        .unknown: 0, .auto: 1, .taxi: 2, .truck: 3, .twoWheeler: 4, .bicycle: 5, .pedestrian: 6,
    ]
}

extension TripStatus: NumberedProtoEnum {
    static let protoNumbers: [TripStatus: Int] = [
        .unknown: 0, .new: 1, .enrouteToPickup: 2, .arrivedAtPickup: 3, .enrouteToDropoff: 4, .complete: 5, .canceled: 6,
        .arrivedAtIntermediateDestination: 7, .enrouteToIntermediateDestination: 8,
    ]
}

extension LocationSensor: NumberedProtoEnum {
    static let protoNumbers: [LocationSensor: Int] = [
        .unknownSensor: 0, .gps: 1, .network: 2, .passive: 3, .roadSnappedLocationProvider: 4, .customerSuppliedLocation: 5,
        .fleetEngineLocation: 6, .fusedLocationProvider: 100, .coreLocation: 200,
    ]
}

extension VehicleMatchOrder: NumberedProtoEnum {
    static let protoNumbers: [VehicleMatchOrder: Int] = [
        .unknown: 0, .pickupPointETA: 1, .pickupPointDistance: 2, .dropoffPointETA: 3, .pickupPointStraightDistance: 4, .cost: 5,
    ]
}

extension VehicleMatch.MatchType: NumberedProtoEnum {
    static let protoNumbers: [VehicleMatch.MatchType: Int] = [.unknown: 0, .exclusive: 1, .backToBack: 2, .carpool: 3]
}

extension BillableTripReport.BillingPlatform: NumberedProtoEnum {
    static let protoNumbers: [BillableTripReport.BillingPlatform: Int] = [
        .unspecified: 0, .server: 1, .web: 2, .android: 3, .ios: 4, .others: 5,
    ]
}

extension BillableTripReport.SolutionType: NumberedProtoEnum {
    static let protoNumbers: [BillableTripReport.SolutionType: Int] = [.unspecified: 0, .onDemandRidesharingAndDeliveries: 1]
}

extension SearchVehiclesRequest.CurrentTripsPresent: NumberedProtoEnum {
    static let protoNumbers: [SearchVehiclesRequest.CurrentTripsPresent: Int] = [.unspecified: 0, .none: 1, .any: 2]
}
