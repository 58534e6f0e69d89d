import FuzzSupport
import LocalFleetEngine

/// The delivery lists' filter parser (AIP-160's comparisons, AND, OR, NOT, parentheses and
/// quoted strings), on any text:
/// - it never crashes, and a refusal says what it refuses;
/// - a filter it accepts, written back out (every value quoted, every operation in
///   parentheses) and parsed again, is the same filter.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzListFilter(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    let filter: ListFilter?
    do throws(InvalidArgument) {
        filter = try ListFilter.parse(text) { _ in nil }
    } catch {
        require(
            error.description.hasPrefix("filter "),
            "a refusal that does not say it is the filter's: \(error.description)")
        return 0
    }
    guard let filter else { return 0 }
    do throws(InvalidArgument) {
        let again = try ListFilter.parse(filter.description) { _ in nil }
        require(
            again == filter,
            "\(text) parsed as \(filter), written as \(filter.description), parsed again as \(String(describing: again))"
        )
    } catch {
        require(false, "\(text) parsed as \(filter), but its written form \(filter.description) is refused: \(error)")
    }
    return 0
}
