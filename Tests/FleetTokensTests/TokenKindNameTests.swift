import FleetTokens
import Testing

/// The names of the kinds of token: one list, read by ``TokenKind/name`` and by the command
/// line's `--kind`, and each name made back into its kind.
@Suite("Token kind names")
struct TokenKindNameTests {
    static let everyID = AuthorizationClaims(
        vehicleID: "v", tripID: "t", deliveryVehicleID: "d", taskID: "x", trackingID: "k")

    @Test("each name makes a kind of that name, scoped to the ids given", arguments: TokenKind.Name.allCases)
    func roundTrip(name: TokenKind.Name) throws {
        let kind = try TokenKind(name, scope: Self.everyID)
        #expect(kind.kindName == name)
        #expect(kind.name == name.rawValue)
        #expect(kind.problem == nil, "\(kind.problem ?? "")")
    }

    @Test("every kind but custom has a name of the list", arguments: SigningRoleTests.kinds)
    func everyKindNamed(kind: TokenKind) {
        if case .custom = kind {
            #expect(kind.kindName == nil && kind.name == "custom")
        } else {
            #expect(kind.kindName.map { TokenKind.Name.allCases.contains($0) } == true, "\(kind.name)")
        }
    }

    @Test("a kind named without its id says which ids it needs")
    func missingID() throws {
        #expect(throws: TokenKind.MissingID.self) { try TokenKind(.driver, scope: .init(tripID: "t")) }
        do {
            _ = try TokenKind(.deliveryConsumer, scope: .init(vehicleID: "v"))
            Issue.record("a delivery consumer token with neither a tracking id nor a task")
        } catch {
            #expect(error.kind == .deliveryConsumer)
            #expect(error.needs == [.tracking, .task])
        }
        #expect(try TokenKind(.deliveryConsumer, scope: .init(taskID: "x")) == .deliveryConsumerTask(taskID: "x"))
        #expect(try TokenKind(.server, scope: .init()) == .server)
    }
}
