import FleetAuthServerHTTP
import FleetEngineProtos
import Foundation
import FuzzSupport
import LocalFleetEngine
import SwiftProtobuf

/// The local Fleet Engine's vehicle and trip request bodies, read as the REST door reads them
/// (swift-protobuf's proto3 JSON into the generated message, which is the engine's model) and
/// checked by the creation rules. The first byte picks the body (even: a vehicle, odd: a trip);
/// the rest is the body.
/// - A refused body gets a 400 with a message; naming the field at fault never crashes.
/// - A body swift-protobuf accepts is a JSON object by Foundation's reader too.
/// - A vehicle or trip that passes the creation rules, written as proto3 JSON (as the store
///   and the answers write it) and read again, is the same vehicle or trip.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestBodies(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let body = Array(bytes.dropFirst())
    if bytes[0] & 1 == 0 {
        check(Vehicle.self, body) { (vehicle) throws(InvalidArgument) in try vehicle.validateForCreation() }
    } else {
        check(Trip.self, body) { (trip) throws(InvalidArgument) in try trip.validateForCreation() }
    }
    return 0
}

/// Reads `body` as a `Message`, applies `rules`, and checks the properties above.
private func check<Message: SwiftProtobuf.Message & Equatable>(
    _ type: Message.Type, _ body: [UInt8], rules: (Message) throws(InvalidArgument) -> Void
) {
    let message: Message
    do throws(APIError) {
        message = try ProtoJSONBody.decode(type, from: body)
        require(
            FoundationJSON.object(of: Data(body)) != nil,
            "swift-protobuf accepts a body Foundation does not read as an object")
    } catch {
        require(
            error.code == .invalidArgument && !error.message.isEmpty,
            "a refused body got \(error.code) with \"\(error.message)\"")
        return
    }
    do throws(InvalidArgument) {
        try rules(message)
    } catch {
        require(!error.description.isEmpty, "a refusal by the rules says nothing")
        return
    }
    do {
        let written: [UInt8] = try message.jsonUTF8Bytes()
        let again = try ProtoJSONBody.decode(type, from: written)
        require(again == message, "a valid \(Message.self) written and read again differs: \(message) became \(again)")
    } catch {
        require(false, "a valid \(Message.self), as the engine writes it, is refused: \(error)")
    }
}
