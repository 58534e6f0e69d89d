import Hummingbird

// The resources the routes answer with, written as proto3 JSON by the context's encoder.
extension Vehicle: ResponseEncodable {}
extension Trip: ResponseEncodable {}
extension SearchVehiclesResponse: ResponseEncodable {}
