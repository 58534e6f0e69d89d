import FleetAuthCodecs
import Foundation
import FuzzSupport

/// Base64url both ways: text the decoder accepts is the one encoding of its bytes (decoding
/// then encoding gives it back) and means what Foundation's base64 decoder says it means; any
/// bytes survive encoding then decoding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBase64URL(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = Array(UnsafeRawBufferPointer(start: start, count: count))
    let text = String(decoding: input, as: UTF8.self)

    if let decoded = Base64URL.decode(input) {
        require(Base64URL.encode(decoded) == text, "decoding then encoding changed the text")
        require(Base64URL.decode(Substring(text)) == decoded, "the Substring and byte decoders differ")
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        require(Data(base64Encoded: standard) == decoded, "Foundation decodes the text to other bytes")
    }

    let encoded = Base64URL.encode(input)
    require(!encoded.utf8.contains(UInt8(ascii: "=")), "the encoding is padded")
    require(Base64URL.decode(Substring(encoded)) == Data(input), "encoding then decoding changed the bytes")
    return 0
}
