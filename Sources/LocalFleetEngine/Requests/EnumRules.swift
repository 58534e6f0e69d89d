import SwiftProtobuf

/// The rules every enum field of a request follows.
extension SwiftProtobuf.Enum where Self: CaseIterable {
    /// Refuses a value the .proto does not define (proto3 keeps unknown numbers), naming
    /// `field`.
    func requireDefined(_ field: String) throws(InvalidArgument) {
        guard Self.allCases.contains(self) else {
            throw InvalidArgument("\(field) is \(rawValue), which is not a value of Fleet Engine's API")
        }
    }

    /// Whether this is the first value, proto3's "not set".
    var isUnset: Bool { rawValue == 0 }
}
