/// Ids by the value of each of some fields, in id order under each value: what a list filter
/// that requires `field = value` reads instead of every resource. Empty values are left out
/// (a resource without the field is found by a scan).
struct FieldIndex: Sendable {
    private var ids: [String: [String: SortedIDs]] = [:]

    /// The ids whose `field` is `value`, or `nil` when none is.
    func ids(where field: String, is value: String) -> SortedIDs? {
        ids[field]?[value]
    }

    /// Takes note that `id`'s `field` went from `old` to `new` (`nil` or empty: none).
    mutating func move(_ id: String, field: String, from old: String?, to new: String?) {
        guard old != new else { return }
        if let old, !old.isEmpty {
            ids[field]?[old]?.remove(id)
            if ids[field]?[old]?.count == 0 { ids[field]?[old] = nil }
        }
        if let new, !new.isEmpty { ids[field, default: [:]][new, default: SortedIDs()].insert(id) }
    }
}

extension ListFilter {
    /// The smallest set of ids `index` holds for a `field = value` this filter requires, among
    /// `fields`: what a listing pages through instead of every id.
    func narrowestIDs(in index: FieldIndex, fields: [String]) -> SortedIDs? {
        fields.compactMap { field in
            requiredValue(of: field).flatMap { index.ids(where: field, is: $0) ?? ($0.isEmpty ? nil : SortedIDs()) }
        }
        .min { $0.count < $1.count }
    }

    /// Whether the filter is one `field = value` comparison on one of `fields`, with a value an
    /// index holds (not empty): its total is then the size of that value's ids.
    func isSingleEquality(on fields: [String]) -> Bool {
        if case .comparison(let field, true, let value) = self { return !value.isEmpty && fields.contains(field) }
        return false
    }

    /// The filter with every field renamed by `rename`.
    func renamingFields(_ rename: (String) -> String) -> ListFilter {
        switch self {
        case .comparison(let field, let isEqual, let value):
            .comparison(field: rename(field), isEqual: isEqual, value: value)
        case .and(let left, let right): .and(left.renamingFields(rename), right.renamingFields(rename))
        case .or(let left, let right): .or(left.renamingFields(rename), right.renamingFields(rename))
        case .not(let inner): .not(inner.renamingFields(rename))
        }
    }
}
