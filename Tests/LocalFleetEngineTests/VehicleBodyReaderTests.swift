import FleetServerSupport
import Foundation
import NIOCore
import Testing

@testable import LocalFleetEngine

/// The quick reader of vehicle bodies must never change what a body means: whatever it
/// takes, it reads as the general decoder does, and whatever it gives up on still gets the
/// general decoder's answer or error.
@Suite("Quick reader of vehicle update bodies")
struct VehicleBodyReaderTests {
    /// Bodies driver apps send; the quick reader takes each of them.
    static let common = [
        #"{"lastLocation":{"location":{"latitude":52.52,"longitude":13.405},"heading":90,"speed":8.5,"updateTime":"2026-11-21T16:30:00Z"}}"#,
        #"{"lastLocation":{"location":{"latitude":-33.8688,"longitude":151.2093},"latlngAccuracy":4.25,"heading":0,"headingAccuracy":10,"#
            + #""speed":0,"speedAccuracy":0.5,"altitude":-12.5,"altitudeAccuracy":3e0,"updateTime":"2026-11-21T16:30:00.123456789Z","#
            + #""serverTime":"2026-11-21T16:30:01Z","locationSensor":"GPS","isRoadSnapped":true}}"#,
        #"{"name":"providers/p/vehicles/v1","vehicleState":"ONLINE","lastLocation":{"location":{"latitude":1E-7,"longitude":-0},"isRoadSnapped":false}}"#,
        #"  {  "lastLocation" : { "location" : { "latitude" : 10.0000001 } , "heading" : 359 } }  "#,
        #"{"lastLocation":{"location":{},"locationSensor":"CORE_LOCATION","updateTime":"2026-11-21T18:30:00+02:00"}}"#,
        #"{"vehicleState":"OFFLINE"}"#,
        #"{"lastLocation":{"heading":-0,"speed":-0.0,"altitude":-1e-3,"latlngAccuracy":0e-400}}"#,
        #"{"lastLocation":{}}"#,
        "{}",
        #"{"name":"caf\u00e9 \"x\""}"#,
        #"{"lastLocation":{"updateTime":"2026-11-21T16:30:00\u005A","location":{"latitude":1.5e1,"longitude":-1.25E+2}}}"#,
    ]

    /// Bodies the quick reader leaves to the general decoder, which accepts some and refuses
    /// the rest.
    static let uncommon = [
        #"{"last_location":{"location":{"latitude":52.52,"longitude":13.405}}}"#,
        #"{"lastLocation":null}"#,
        #"{"lastLocation":{"location":{"latitude":null,"longitude":13.405}}}"#,
        #"{"lastLocation":{"location":{"latitude":"NaN","longitude":13.405}}}"#,
        #"{"lastLocation":{"location":{"latitude":1e400,"longitude":13.405}}}"#,
        #"{"lastLocation":{"location":{"latitude":1e-400,"longitude":13.405}}}"#,
        #"{"lastLocation":{"speed":-2.4703282292062327e-325}}"#,
        #"{"lastLocation":{"speed":0.\#(String(repeating: "0", count: 400))1}}"#,
        #"{"lastLocation":{"heading":90.0}}"#,
        #"{"lastLocation":{"heading":1e2}}"#,
        #"\#u{FEFF}{"lastLocation":{"heading":90}}"#,
        #"{"lastLocation":{"heading":9223372036854775808}}"#,
        #"{"lastLocation":{"heading":"90"}}"#,
        #"{"lastLocation":{"speed":8.5,"speed":9.5}}"#,
        #"{"lastLocation":{"updateTime":"yesterday"}}"#,
        #"{"lastLocation":{"locationSensor":"SONAR"}}"#,
        #"{"lastLocation":{"isRoadSnapped":1}}"#,
        #"{"lastLocation":{"location":{"latitude":1,"longitude":2,"altitude":3}}}"#,
        #"{"vehicleState":"ONLINE","supportedTripTypes":["SHARED"]}"#,
        #"{"maximumCapacity":4}"#,
        #"{"lastLocation":{"speed":01}}"#,
        #"{"lastLocation":{"speed":8.5}} trailing"#,
        #"{"lastLocation":{"speed":8.5},}"#,
        #"{"unknownField":1}"#,
    ]

    @Test(arguments: common)
    func takesCommonBodiesAsTheGeneralDecoderReadsThem(body: String) throws {
        let quick = try #require(Self.quicklyRead(body))
        // Described as well as compared: -0.0 equals 0.0, but is written differently.
        let general = try Self.decodeGenerally(body).get()
        #expect(quick == general)
        #expect(String(describing: quick) == String(describing: general))
    }

    @Test(arguments: uncommon)
    func leavesOtherBodiesToTheGeneralDecoder(body: String) {
        #expect(Self.quicklyRead(body) == nil)
        // Described rather than compared: NaN is not equal to itself.
        #expect(String(describing: Self.decode(body)) == String(describing: Self.decodeGenerally(body)))
    }

    /// Coordinates with every number of digits read to the same `Double` both ways (a fixed
    /// spread of values, so that a failure can be repeated).
    @Test func readsNumbersAsTheGeneralDecoderDoes() throws {
        for step in 0..<500 {
            let latitude = (Double(step) * 0.618_033_988_749_894_9 * 180).truncatingRemainder(dividingBy: 180) - 90
            let written = String(format: "%.\(step % 18)f", latitude)
            let speed = String(format: "%.17g", latitude.magnitude * 1e-3)
            let body = #"{"lastLocation":{"location":{"latitude":\#(written),"longitude":\#(latitude)},"speed":\#(speed)}}"#
            let quick = try #require(Self.quicklyRead(body), "\(body)")
            #expect(quick == (try Self.decodeGenerally(body).get()), "\(body)")
        }
    }

    /// What the update route uses: the quick reader first.
    private static func decode(_ body: String) -> Result<Vehicle, APIError> {
        Result { () throws(APIError) in try ProtoJSONBody.decode(Vehicle.self, from: ByteBuffer(string: body), quickReader: Vehicle.quicklyRead) }
    }

    private static func decodeGenerally(_ body: String) -> Result<Vehicle, APIError> {
        Result { () throws(APIError) in try ProtoJSONBody.decode(Vehicle.self, from: ByteBuffer(string: body)) }
    }

    private static func quicklyRead(_ body: String) -> Vehicle? {
        ByteBuffer(string: body).withUnsafeReadableBytes(Vehicle.quicklyRead)
    }
}
