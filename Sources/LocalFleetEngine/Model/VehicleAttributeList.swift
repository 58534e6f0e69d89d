/// `{"attributes": […]}`: UpdateVehicleAttributes' REST body and its answer.
package struct VehicleAttributeList: Sendable, Hashable {
    /// The attributes.
    package var attributes: [VehicleAttribute]?

    /// A list of `attributes`.
    package init(attributes: [VehicleAttribute]) {
        self.attributes = attributes
    }
}
