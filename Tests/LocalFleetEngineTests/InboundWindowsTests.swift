import Testing

@testable import LocalFleetEngine

/// When the gRPC door lets a caller send more.
@Suite("gRPC door: inbound flow control")
struct InboundWindowsTests {
    @Test func theConnectionIsToppedUpOnceHalfItsWindowIsUsedAndOneTopUpAtATime() {
        var windows = InboundWindows(maximumRequestSize: 4 << 20)
        #expect(windows.connectionTopUp() == nil, "nothing reported yet")
        windows.connectionWindowReported(InboundWindows.connectionTarget / 2 + 1)
        #expect(windows.connectionTopUp() == nil, "more than half is left")
        windows.connectionWindowReported(65_535 - 81)
        #expect(windows.connectionTopUp() == InboundWindows.connectionTarget - (65_535 - 81))
        // A window reported before that top-up was written is not granted again.
        windows.connectionWindowReported(65_535 - 81)
        #expect(windows.connectionTopUp() == nil)
        windows.topUpWritten()
        windows.connectionWindowReported(1000)
        #expect(windows.connectionTopUp() == InboundWindows.connectionTarget - 1000)
    }

    @Test func unfinishedRequestsOverTheBudgetStopTheTopUpsUntilTheyAreRead() {
        var windows = InboundWindows(maximumRequestSize: 4 << 20)
        windows.bufferedBytes = InboundWindows.bufferedBudget
        windows.connectionWindowReported(0)
        #expect(windows.connectionTopUp() == nil)
        windows.bufferedBytes -= 4 << 20
        #expect(windows.connectionTopUp() == InboundWindows.connectionTarget)
    }

    @Test func aStreamIsToppedUpOnlyOnceHalfItsWindowIsUsed() {
        let windows = InboundWindows(maximumRequestSize: 4 << 20)
        #expect(windows.streamTarget > (4 << 20) + 5, "a whole request fits in a stream's first window")
        #expect(windows.streamTopUp(window: windows.streamTarget / 2) == nil)
        #expect(windows.streamTopUp(window: 100) == windows.streamTarget - 100)
    }
}
