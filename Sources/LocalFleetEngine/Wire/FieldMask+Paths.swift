import SwiftProtobuf

extension Google_Protobuf_FieldMask {
    /// The paths as REST's `updateMask` query parameter has them (comma-separated), or `nil`
    /// for an empty mask.
    var joinedPaths: String? {
        paths.isEmpty ? nil : paths.joined(separator: ",")
    }
}
