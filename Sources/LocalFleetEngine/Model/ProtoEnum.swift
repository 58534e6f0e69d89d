/// A model enum named as in Fleet Engine's .proto files: each case's raw value is the proto
/// value's name, e.g. `"ONLINE"`, as REST query parameters and messages spell it.
package protocol ProtoEnum: RawRepresentable, CaseIterable, Sendable, Hashable where RawValue == String {}
