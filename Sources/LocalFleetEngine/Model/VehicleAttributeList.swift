/// `{"attributes": […]}`: UpdateVehicleAttributes' REST body and its answer.
public struct VehicleAttributeList: Sendable, Hashable {
    /// The attributes.
    public var attributes: [VehicleAttribute]?

    /// A list of `attributes`.
    public init(attributes: [VehicleAttribute]) {
        self.attributes = attributes
    }
}
