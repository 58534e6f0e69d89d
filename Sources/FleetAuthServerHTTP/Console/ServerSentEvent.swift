import Foundation
import NIOCore

/// One server-sent event, as the consoles' live streams write them: its name, then its data as
/// JSON on one line, then a blank line.
package enum ServerSentEvent {
    /// The event `name` carrying `json` (JSON encoded without line breaks).
    package static func encode(_ name: String, json: Data) -> ByteBuffer {
        var buffer = ByteBuffer(string: "event: \(name)\ndata: ")
        buffer.writeBytes(json)
        buffer.writeString("\n\n")
        return buffer
    }
}
