import FleetEngineProtos
import Foundation
import FuzzSupport
import LocalFleetEngine
import ServerHTTP
import SwiftProtobuf

/// The local Fleet Engine's vehicle and trip request bodies, read as the REST door reads them
/// (swift-protobuf's proto3 JSON into the generated message, then the engine's model and its
/// creation rules). The first byte picks the body (even: a vehicle, odd: a trip); the rest is
/// the body.
/// - A refused body gets a 400 with a message; naming the field at fault never crashes.
/// - A body swift-protobuf accepts is a JSON object by Foundation's reader too.
/// - A vehicle or trip that passes the creation rules, written as the engine writes it and read
///   again, is the same vehicle or trip.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestBodies(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let body = Array(bytes.dropFirst())
    if bytes[0] & 1 == 0 {
        check(Maps_Fleetengine_V1_Vehicle.self, body, read: Vehicle.init(proto:), rules: { try $0.validateForCreation() }, write: \.proto)
    } else {
        check(Maps_Fleetengine_V1_Trip.self, body, read: Trip.init(proto:), rules: { try $0.validateForCreation() }, write: \.proto)
    }
    return 0
}

/// Reads `body` as a `Message` and then a `Model`, and checks the properties above.
private func check<Message: SwiftProtobuf.Message, Model: Equatable>(
    _ type: Message.Type,
    _ body: [UInt8],
    read: (Message) throws(APIError) -> Model,
    rules: (Model) throws -> Void,
    write: (Model) -> Message
) {
    let model: Model
    do throws(APIError) {
        let message = try ProtoJSONBody.decode(type, from: body)
        require(FoundationJSON.object(of: Data(body)) != nil, "swift-protobuf accepts a body Foundation does not read as an object")
        model = try read(message)
    } catch {
        require(error.code == .invalidArgument && !error.message.isEmpty, "a refused body got \(error.code) with \"\(error.message)\"")
        return
    }
    guard (try? rules(model)) != nil else { return }
    do {
        let written: [UInt8] = try write(model).jsonUTF8Bytes()
        let again = try read(ProtoJSONBody.decode(type, from: written))
        require(again == model, "a valid \(Model.self) written and read again differs: \(model) became \(again)")
    } catch {
        require(false, "a valid \(Model.self), as the engine writes it, is refused: \(error)")
    }
}
