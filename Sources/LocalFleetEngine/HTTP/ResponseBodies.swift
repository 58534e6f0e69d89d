import Hummingbird

/// A resource that a route answers with, written as proto3 JSON.
protocol ProtoJSONResponse: ResponseGenerator, ProtoJSONEncodable {}

extension ProtoJSONResponse {
    /// `200 OK` with the resource's proto3 JSON.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: protoJSON)))
    }
}

/// The answer of methods that return `google.protobuf.Empty`: `{}`.
struct EmptyResponse: ProtoJSONResponse {
    /// Writes no field.
    func writeFields(to object: inout ProtoJSONObjectWriter) {}
}

extension Vehicle: ProtoJSONResponse {}
extension Trip: ProtoJSONResponse {}
extension SearchVehiclesResponse: ProtoJSONResponse {}
extension ListVehiclesResponse: ProtoJSONResponse {}
extension VehicleAttributeList: ProtoJSONResponse {}
extension SearchTripsResponse: ProtoJSONResponse {}
