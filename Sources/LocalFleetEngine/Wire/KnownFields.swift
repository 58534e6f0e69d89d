import Foundation
import SwiftProtobuf

extension SwiftProtobuf.Message {
    /// Refuses a message carrying, at any depth, a field the engine's .proto files leave out (a
    /// field Google's API has but the local Fleet Engine does not keep), as REST refuses
    /// unknown JSON fields: `field` names the message, and the refusal the field's number and
    /// the message type it arrived in. Only binary protobuf (gRPC) can carry such fields.
    ///
    /// Refuses too an enum number that does not fit an enum's 32 bits, in any enum field: proto3
    /// JSON reads one (as an unrecognized value), but it cannot be written back, and a message
    /// holding one must never reach the store.
    func requireKnownFields(_ field: String) throws(InvalidArgument) {
        var finder = UnknownFieldFinder(types: [Self.protoMessageName])
        do {
            try traverse(visitor: &finder)
        } catch let found as UnknownFieldFinder.Found {
            throw InvalidArgument(
                "\(field) has field number \(found.number) of \(found.type), which the local Fleet Engine does not keep"
            )
        } catch let wide as UnknownFieldFinder.WideEnum {
            throw InvalidArgument(
                "\(field) has the enum value \(wide.value) in field number \(wide.number) of \(wide.type), which is not a 32-bit enum number"
            )
        } catch {
            // The finder throws nothing else; were it to, the message is not let through unchecked.
            throw InvalidArgument("\(field) could not be checked for fields the local Fleet Engine does not keep")
        }
    }
}

/// Walks a message and its nested messages, and stops (throwing ``Found``) at the first field
/// that decoding kept as unknown, or (throwing ``WideEnum``) at an enum number beyond 32 bits.
/// No other value is looked at.
private struct UnknownFieldFinder: Visitor {
    /// The first unknown field: its number and the message type it belongs to.
    struct Found: Error {
        let number: UInt64
        let type: String
    }

    /// An enum value whose number does not fit 32 bits: its number, its field's, and the type.
    struct WideEnum: Error {
        let value: Int
        let number: Int
        let type: String
    }

    /// The message types from the root down to the one being walked.
    var types: [String]

    mutating func visitSingularMessageField<M: Message>(value: M, fieldNumber: Int) throws {
        types.append(M.protoMessageName)
        try value.traverse(visitor: &self)
        types.removeLast()
    }

    mutating func visitUnknown(bytes: Data) throws {
        guard !bytes.isEmpty else { return }
        throw Found(number: Self.firstFieldNumber(in: bytes), type: types.last ?? "")
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

    // Scalar values carry no unknown fields; the engine's messages have no maps.
    mutating func visitSingularDoubleField(value: Double, fieldNumber: Int) throws {}
    mutating func visitSingularInt64Field(value: Int64, fieldNumber: Int) throws {}
    mutating func visitSingularUInt64Field(value: UInt64, fieldNumber: Int) throws {}
    mutating func visitSingularBoolField(value: Bool, fieldNumber: Int) throws {}
    mutating func visitSingularStringField(value: String, fieldNumber: Int) throws {}
    mutating func visitSingularBytesField(value: Data, fieldNumber: Int) throws {}
    mutating func visitSingularEnumField<E: Enum>(value: E, fieldNumber: Int) throws {
        guard Int32(exactly: value.rawValue) != nil else {
            throw WideEnum(value: value.rawValue, number: fieldNumber, type: types.last ?? "")
        }
    }
    mutating func visitMapField<KeyType, ValueType: MapValueType>(
        fieldType: _ProtobufMap<KeyType, ValueType>.Type, value: _ProtobufMap<KeyType, ValueType>.BaseType,
        fieldNumber: Int
    ) throws {}
    mutating func visitMapField<KeyType, ValueType>(
        fieldType: _ProtobufEnumMap<KeyType, ValueType>.Type, value: _ProtobufEnumMap<KeyType, ValueType>.BaseType,
        fieldNumber: Int
    ) throws where ValueType.RawValue == Int {}
    mutating func visitMapField<KeyType, ValueType>(
        fieldType: _ProtobufMessageMap<KeyType, ValueType>.Type,
        value: _ProtobufMessageMap<KeyType, ValueType>.BaseType, fieldNumber: Int
    ) throws {}
}
