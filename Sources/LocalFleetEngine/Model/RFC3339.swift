/// Reads and writes RFC 3339 timestamps exactly (no `DateFormatter`, no rounding through
/// `Double`), with the proleptic Gregorian calendar arithmetic of Howard Hinnant's
/// `days_from_civil`.
enum RFC3339 {
    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; `t`/`z` are accepted in either case.
    static func parse(_ text: String) -> ProtoTimestamp? {
        var reader = Reader(Array(text.utf8))
        guard let year = reader.number(digits: 4), reader.skip("-"),
              let month = reader.number(digits: 2), reader.skip("-"),
              let day = reader.number(digits: 2), reader.skip("T") || reader.skip("t"),
              let hour = reader.number(digits: 2), reader.skip(":"),
              let minute = reader.number(digits: 2), reader.skip(":"),
              let second = reader.number(digits: 2)
        else { return nil }
        guard year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var nanos: Int64 = 0
        if reader.skip(".") {
            var digits = 0
            while let digit = reader.digit() {
                digits += 1
                guard digits <= 9 else { return nil }
                nanos = nanos * 10 + digit
            }
            guard digits > 0 else { return nil }
            for _ in digits..<9 { nanos *= 10 }
        }
        var offsetSeconds: Int64 = 0
        if reader.skip("Z") || reader.skip("z") {
            offsetSeconds = 0
        } else {
            let sign: Int64
            if reader.skip("+") { sign = 1 } else if reader.skip("-") { sign = -1 } else { return nil }
            guard let offsetHours = reader.number(digits: 2), reader.skip(":"), let offsetMinutes = reader.number(digits: 2),
                  offsetHours < 24, offsetMinutes < 60
            else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        }
        guard reader.isAtEnd else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return ProtoTimestamp(seconds: seconds, nanos: Int32(nanos))
    }

    /// Writes `timestamp` in UTC with 0, 3, 6 or 9 fractional digits.
    static func format(_ timestamp: ProtoTimestamp) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(32)
        append(timestamp, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends `timestamp` to `text` as ``format(_:)`` writes it.
    static func append(_ timestamp: ProtoTimestamp, to text: inout [UInt8]) {
        let days = floorDivide(timestamp.seconds, 86_400)
        let secondOfDay = timestamp.seconds - days * 86_400
        let (year, month, day) = civilFromDays(days)
        append(year, width: 4, to: &text)
        text.append(UInt8(ascii: "-"))
        append(month, width: 2, to: &text)
        text.append(UInt8(ascii: "-"))
        append(day, width: 2, to: &text)
        text.append(UInt8(ascii: "T"))
        append(secondOfDay / 3600, width: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        append(secondOfDay % 3600 / 60, width: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        append(secondOfDay % 60, width: 2, to: &text)
        let nanos = Int64(timestamp.nanos)
        if nanos != 0 {
            text.append(UInt8(ascii: "."))
            if nanos % 1_000_000 == 0 {
                append(nanos / 1_000_000, width: 3, to: &text)
            } else if nanos % 1000 == 0 {
                append(nanos / 1000, width: 6, to: &text)
            } else {
                append(nanos, width: 9, to: &text)
            }
        }
        text.append(UInt8(ascii: "Z"))
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilFromDays(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : (value - divisor + 1) / divisor
    }

    /// Appends `value` in decimal, padded with zeros to `width` digits (written into bytes
    /// directly: this runs for every timestamp of every location update).
    private static func append(_ value: Int64, width: Int, to text: inout [UInt8]) {
        guard value >= 0, value < 1_000_000_000_000_000 else {
            let digits = Array(String(value).utf8)
            if digits.count < width { text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits.count)) }
            text.append(contentsOf: digits)
            return
        }
        var divisor: Int64 = 1
        var count = 1
        while divisor * 10 <= value {
            divisor *= 10
            count += 1
        }
        if count < width { text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - count)) }
        var rest = value
        while divisor > 0 {
            text.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// Reads ASCII text byte by byte.
    private struct Reader {
        private let bytes: [UInt8]
        private var index = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        var isAtEnd: Bool { index == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func digit() -> Int64? {
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
            defer { index += 1 }
            return Int64(bytes[index] - UInt8(ascii: "0"))
        }

        mutating func number(digits: Int) -> Int64? {
            var value: Int64 = 0
            for _ in 0..<digits {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }
    }
}
