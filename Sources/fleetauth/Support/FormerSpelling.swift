import Foundation

/// Tells, on standard error, that `option`'s value `former` is now spelled `current`: the
/// command goes on with it, as earlier versions' scripts expect.
func noteFormerSpelling(option: String, former: String, current: String) {
    FileHandle.standardError.write(
        Data("note: \(option) \(former) is now spelled \(current); the old spelling still works\n".utf8))
}
