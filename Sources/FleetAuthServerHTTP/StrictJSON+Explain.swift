/// Messages for bodies whose types check their own values (unknown fields in nested objects,
/// enum names): the decoder's reason is what the caller needs to fix the request.
extension StrictJSON {
    /// Like the message ``decode(_:from:)`` gives, plus, for a value the decoder refused
    /// (`dataCorrupted` at a field), the decoder's own reason, e.g.
    /// `field "vehicleState" is not valid: 'PARKED' is not one of …`. Only for APIs whose
    /// bodies hold no secrets, since the reason may quote the value.
    package static func explain(_ error: DecodingError) -> String {
        guard case .dataCorrupted(let context) = error, !context.codingPath.isEmpty, !context.debugDescription.isEmpty
        else {
            return describe(error)
        }
        return "\(describe(error)): \(context.debugDescription)"
    }
}
