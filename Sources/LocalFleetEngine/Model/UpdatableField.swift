/// A top-level field of a resource that an `updateMask` may name.
package protocol UpdatableField: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {
    /// The resource the fields belong to, e.g. `Vehicle`, for messages.
    static var resourceName: String { get }
    /// The fields a Driver SDK token may set.
    static var driverWritable: Set<Self> { get }
}
