/// `{"attributes": […]}`: UpdateVehicleAttributes' REST body and its answer.
public struct VehicleAttributeList: Sendable, Hashable, Decodable, ProtoJSONEncodable {
    /// The attributes.
    public var attributes: [VehicleAttribute]?

    enum CodingKeys: String, CodingKey {
        case attributes
    }

    /// A list of `attributes`.
    public init(attributes: [VehicleAttribute]) {
        self.attributes = attributes
    }

    /// Reads proto3 JSON, refusing unknown fields.
    public init(from decoder: any Decoder) throws {
        attributes = try StrictContainer(decoder, keyedBy: CodingKeys.self).decodeIfPresent([VehicleAttribute].self, forKey: .attributes)
    }

    /// Writes the attributes.
    public func writeFields(to object: inout ProtoJSONObjectWriter) {
        object.field(CodingKeys.attributes, attributes)
    }
}
