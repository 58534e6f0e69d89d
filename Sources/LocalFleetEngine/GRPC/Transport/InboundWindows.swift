/// The gRPC door's inbound flow control for one HTTP/2 connection: when to let the caller send
/// more, given the windows swift-nio-http2 reports after each frame.
///
/// Each stream's window starts large enough for a whole request, and the connection's is kept
/// near ``connectionTarget`` as data arrives, as swift-nio-http2's stream multiplexer would. Two
/// limits keep a caller from piling up memory: the connection's window is not topped up while
/// more than ``bufferedBudget`` bytes of unfinished requests are held, and one top-up at a time
/// is in flight (a window reported before it was written would otherwise be granted twice).
struct InboundWindows {
    /// What the connection's window is topped up to.
    static let connectionTarget = 1 << 20
    /// Bytes of requests not yet read whole beyond which the connection's window is left to run
    /// out: sixteen requests of gRPC's usual 4 MiB.
    static let bufferedBudget = 64 << 20

    /// What each stream's window starts at and is topped up to.
    let streamTarget: Int
    /// Bytes of requests not yet read whole.
    var bufferedBytes = 0
    /// The connection's window as last reported.
    private var connectionWindow: Int?
    private var topUpInFlight = false

    /// Windows for requests of at most `maximumRequestSize` bytes of messages (plus their 5-byte
    /// prefixes and some padding).
    init(maximumRequestSize: Int) {
        streamTarget = min(maximumRequestSize + 16 * 1024, Int(Int32.max))  // HTTP/2's largest window
    }

    /// Records the connection's window as swift-nio-http2 reports it.
    mutating func connectionWindowReported(_ size: Int) {
        connectionWindow = size
    }

    /// The increment to grant the connection now, if any; call ``topUpWritten()`` once it is
    /// written.
    mutating func connectionTopUp() -> Int? {
        guard let window = connectionWindow, !topUpInFlight, window < Self.connectionTarget / 2,
            bufferedBytes < Self.bufferedBudget
        else {
            return nil
        }
        topUpInFlight = true
        connectionWindow = Self.connectionTarget
        return Self.connectionTarget - window
    }

    /// The last top-up has been written.
    mutating func topUpWritten() {
        topUpInFlight = false
    }

    /// The increment to grant a stream still being read whose window is `size` (padding uses it
    /// up without adding to the request), if any.
    func streamTopUp(window size: Int) -> Int? {
        size < streamTarget / 2 ? streamTarget - size : nil
    }
}
