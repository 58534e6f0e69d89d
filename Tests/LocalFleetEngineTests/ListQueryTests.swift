import FleetAuthServerHTTP
import FleetEngineProtos
import Hummingbird
import HummingbirdCore
import Testing

@testable import LocalFleetEngine

/// ListVehicles' REST query, read by ``QueryMessage`` as the delivery lists' queries are: every
/// field the REST mapping carries, in either spelling, lists of one or more, booleans and
/// durations as Google writes them; and a clear 400 for what is not a ListVehicles request.
@Suite("List queries")
struct ListQueryTests {
    private func request(_ query: String) throws(APIError) -> ListVehiclesRequest {
        try ListVehiclesRequest(query: URI("/v1/providers/p/vehicles?\(query)").formQueryParameters)
    }

    private func refusal(_ query: String) -> String? {
        do {
            _ = try request(query)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("every field of the REST mapping, camelCase, lists given once and twice")
    func everyField() throws {
        let read = try request(
            "pageSize=2&pageToken=abc&minimumCapacity=3&tripTypes=SHARED&vehicleTypeCategories=AUTO"
                + "&vehicleTypeCategories=TWO_WHEELER&requiredAttributes=zone:north&requiredOneOfAttributes=a:1%7Cb:2"
                + "&requiredOneOfAttributeSets=c:3&vehicleState=ONLINE&onTripOnly=true&maximumStaleness=30s&$alt=json")
        #expect(read.pageSize == 2)
        #expect(read.pageToken == "abc")
        #expect(read.minimumCapacity.value == 3)
        #expect(read.tripTypes == [.shared])
        #expect(read.vehicleTypeCategories == [.auto, .twoWheeler])
        #expect(read.requiredAttributes == ["zone:north"])
        #expect(read.requiredOneOfAttributes == ["a:1|b:2"])
        #expect(read.requiredOneOfAttributeSets == ["c:3"])
        #expect(read.vehicleState == .online)
        #expect(read.onTripOnly)
        #expect(read.maximumStaleness.seconds == 30)
    }

    @Test("snake_case names and enums by number read the same")
    func spellings() throws {
        let read = try request("page_size=5&trip_types=2&trip_types=EXCLUSIVE&on_trip_only=false&vehicle_state=1")
        #expect(read.pageSize == 5)
        #expect(read.tripTypes == [.exclusive, .exclusive])
        #expect(!read.onTripOnly)
        #expect(read.vehicleState == .offline)
        #expect(try request("") == ListVehiclesRequest())
    }

    @Test("what is not a ListVehicles request is refused, naming the parameter")
    func refusals() {
        #expect(refusal("bogus=1")?.contains("bogus") == true)
        #expect(refusal("pageSize=many")?.contains("pageSize") == true)
        #expect(refusal("onTripOnly=yes")?.contains("onTripOnly") == true)
        #expect(refusal("tripTypes=ROCKET")?.contains("tripTypes") == true)
        #expect(refusal("maximumStaleness=soon")?.contains("maximumStaleness") == true)
        #expect(
            refusal("vehicleState=UNKNOWN_VEHICLE_STATE")
                == "vehicleState is 'UNKNOWN_VEHICLE_STATE', which is not a state to filter by")
    }
}
