import Foundation

/// Finds an object in a JSON document that names a member twice. Foundation's readers take such
/// a document silently, and `JSONSerialization` and `JSONDecoder` may keep different values of
/// the member: a login body with two `password`s was checked by one and read by the other.
enum JSONDuplicateMembers {
    /// Whether some object in `data` names a member twice (names compared after unescaping).
    /// Meant for documents Foundation has already read; never traps on others.
    static func found(in data: Data) -> Bool {
        let bytes = [UInt8](data)
        // The member names seen in each open object, and `nil` for each open array.
        var open: [Set<String>?] = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"): open.append([])
            case UInt8(ascii: "["): open.append(nil)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = open.popLast()
            case UInt8(ascii: "\""):
                let end = endOfString(in: bytes, from: index)
                if let names = open.last, let names, nextByte(in: bytes, from: end) == UInt8(ascii: ":") {
                    var updated = names
                    guard updated.insert(name(bytes[index..<end])).inserted else { return true }
                    open[open.count - 1] = updated
                }
                index = end
                continue
            default: break
            }
            index += 1
        }
        return false
    }

    /// The index just past the string literal that opens at `start`.
    private static func endOfString(in bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return bytes.count
    }

    /// The first byte from `start` on that is not white space.
    private static func nextByte(in bytes: [UInt8], from start: Int) -> UInt8? {
        bytes[min(start, bytes.count)...].first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    }

    /// The text of a string literal, its escapes decoded by Foundation.
    private static func name(_ literal: ArraySlice<UInt8>) -> String {
        guard literal.contains(UInt8(ascii: "\\")) else { return String(decoding: literal.dropFirst().dropLast(), as: UTF8.self) }
        return (try? JSONSerialization.jsonObject(with: Data(literal), options: [.fragmentsAllowed])) as? String
            ?? String(decoding: literal, as: UTF8.self)
    }
}
