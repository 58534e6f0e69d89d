import Foundation
import ServerHTTP
import SwiftProtobuf

extension SwiftProtobuf.Message {
    /// Refuses a message carrying fields the engine's .proto files leave out (fields Google's
    /// API has but the local Fleet Engine does not keep), as REST refuses unknown JSON fields:
    /// 400 naming `field` and the first unknown field's number.
    func requireKnownFields(_ field: String) throws(APIError) {
        guard !unknownFields.data.isEmpty else { return }
        let number = Self.firstFieldNumber(in: unknownFields.data)
        throw .invalidArgument("\(field) has field number \(number) of \(Self.protoMessageName), which the local Fleet Engine does not keep")
    }

    /// The field number of the first tag in `data` (a varint: the number, then 3 bits of wire type).
    private static func firstFieldNumber(in data: Data) -> UInt64 {
        var tag: UInt64 = 0
        for (index, byte) in data.prefix(10).enumerated() {
            tag |= UInt64(byte & 0x7F) << (7 * UInt64(index))
            if byte & 0x80 == 0 { break }
        }
        return tag >> 3
    }
}
