import Foundation
import Testing

extension Trait where Self == ConditionTrait {
    /// Runs the test only with `FLEETAUTH_FAULT_TESTS=1`, as `scripts/test-faults.sh` runs the
    /// fault tests, one at a time: PostgreSQL stopped and connections ended under load, bad
    /// networks between the apps and the servers, and key rotations under load. Their bounds are on real time, and beside the
    /// whole suite on a busy machine they are not reliable (see docs/token-server.md).
    package static var faultTest: Self {
        .enabled(
            if: ProcessInfo.processInfo.environment["FLEETAUTH_FAULT_TESTS"] == "1",
            "a fault test: it runs with FLEETAUTH_FAULT_TESTS=1 (scripts/test-faults.sh)")
    }
}
