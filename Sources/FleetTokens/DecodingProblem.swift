/// Turns `DecodingError`s into short messages that name the offending field.
enum DecodingProblem {
    /// A message naming the field and what is wrong with it.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not valid JSON" }
        func path(_ codingPath: [any CodingKey]) -> String {
            let names = codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return names.isEmpty ? "the document" : "'\(names.joined(separator: "."))'"
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) must be \(describe(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) must be \(describe(type)), not null"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is missing"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "\(path(context.codingPath)) is not valid"
        @unknown default:
            return "not valid JSON"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is [String].Type: "an array of strings"
        default: "an object of the right shape"
        }
    }
}
