extension String {
    /// The string, or `nil` when it is empty (proto3's "not set").
    var nonEmpty: String? { isEmpty ? nil : self }
}

extension Array {
    /// The array, or `nil` when it is empty (proto3's "not set").
    var nonEmpty: [Element]? { isEmpty ? nil : self }
}
