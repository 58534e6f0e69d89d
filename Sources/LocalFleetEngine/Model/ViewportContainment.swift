import FleetEngineProtos

extension Google_Geo_Type_Viewport {
    /// Whether `point` lies in the viewport, edges included. A viewport whose low latitude is
    /// above its high one holds nothing; one whose low longitude is east of its high one
    /// crosses the antimeridian.
    func contains(_ point: LatLng) -> Bool {
        guard low.latitude <= point.latitude, point.latitude <= high.latitude else { return false }
        if low.longitude <= high.longitude {
            return low.longitude <= point.longitude && point.longitude <= high.longitude
        }
        return point.longitude >= low.longitude || point.longitude <= high.longitude
    }
}
