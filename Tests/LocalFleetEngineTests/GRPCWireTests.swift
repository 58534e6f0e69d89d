import GRPCCore
import NIOCore
import NIOHPACK
import Testing

@testable import LocalFleetEngine

/// gRPC's wire format as the door's transport reads and writes it.
@Suite("gRPC wire format")
struct GRPCWireTests {
    func body(_ bytes: [UInt8]) -> ByteBuffer {
        ByteBuffer(bytes: bytes)
    }

    @Test("a body splits into its length-prefixed messages")
    func messages() throws {
        var buffer = body([0, 0, 0, 0, 2, 7, 8] + [0, 0, 0, 0, 0] + [0, 0, 0, 0, 1, 9])
        #expect(try GRPCWire.messages(in: &buffer) == [[7, 8], [], [9]])
    }

    @Test(
        "a body that ends inside a message is INTERNAL; a compressed message UNIMPLEMENTED",
        arguments: [
            ([0, 0, 0, 0, 3, 1], Status.Code.internalError), ([0, 0, 0], .internalError),
            ([1, 0, 0, 0, 1, 5], .unimplemented),
        ] as [([UInt8], Status.Code)])
    func refusals(bytes: [UInt8], code: Status.Code) {
        var buffer = body(bytes)
        let refusal = #expect(throws: GRPCWire.Refusal.self) { try GRPCWire.messages(in: &buffer) }
        #expect(refusal?.status.code == code)
    }

    @Test("a message goes out with its prefix")
    func frame() {
        let framed = GRPCWire.frame([1, 2, 3], allocator: ByteBufferAllocator())
        #expect(Array(framed.readableBytesView) == [0, 0, 0, 0, 3, 1, 2, 3])
    }

    @Test("grpc-message is percent-encoded outside printable ASCII, and % itself")
    func percentEncoding() {
        #expect(GRPCWire.percentEncoded("vehicle 'é' is 100% gone\n") == "vehicle '%C3%A9' is 100%25 gone%0A")
    }

    @Test("metadata is every header but the pseudo-headers and gRPC's own; -bin values are decoded")
    func metadata() {
        let headers: HPACKHeaders = [
            ":path": "/a/b", ":method": "POST", "content-type": "application/grpc", "te": "trailers",
            "grpc-encoding": "identity",
            "authorization": "Bearer x", "grpc-timeout": "1S", "trace-bin": "AQID",
        ]
        let metadata = GRPCWire.metadata(of: headers)
        #expect(Array(metadata[stringValues: "authorization"]) == ["Bearer x"])
        #expect(Array(metadata[stringValues: "grpc-timeout"]) == ["1S"])
        #expect(Array(metadata[binaryValues: "trace-bin"]) == [[1, 2, 3]])
        #expect(metadata[stringValues: "content-type"].first(where: { _ in true }) == nil)
        #expect(metadata.count == 3)
    }

    @Test("trailers carry the status; trailers-only answers open the response too")
    func trailers() {
        let only = GRPCWire.trailers(Status(code: .notFound, message: "no vehicle"), Metadata(), trailersOnly: true)
        #expect(only.first(name: ":status") == "200" && only.first(name: "content-type") == "application/grpc")
        #expect(only.first(name: "grpc-status") == "5" && only.first(name: "grpc-message") == "no vehicle")
        let after = GRPCWire.trailers(Status(code: .ok, message: ""), Metadata(), trailersOnly: false)
        #expect(
            after.first(name: ":status") == nil && after.first(name: "grpc-status") == "0"
                && after.first(name: "grpc-message") == nil)
    }
}
