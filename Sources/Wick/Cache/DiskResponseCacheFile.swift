// One URL's stored responses as a file: a checked binary layout, so a corrupt or truncated
// file reads as nothing rather than a wrong body.
import FoundationEssentials
import WickCore

/// The file a `DiskResponseCache` keeps one URL's responses in:
///
///     "WKCACHE1"                      8 bytes, the format
///     header length                   UInt32, little-endian
///     header                          JSON: the key and, per response, URL, status, fields,
///                                     dates, varying request fields and body length
///     bodies                          the bodies, one after another
///     checksum                        UInt64, little-endian: FNV-1a of everything before it
///
/// `decode` returns nil for anything else: a short file, another magic, lengths that do not
/// add up, a checksum that does not match, a header that does not parse.
enum DiskResponseCacheFile {
    static let magic = Array("WKCACHE1".utf8)
    /// The largest header accepted: 1 MiB (fields are bounded well below it by the parser).
    static let maximumHeaderBytes = 1 << 20

    struct Header: Codable {
        struct Entry: Codable {
            var url: String
            var status: Int
            var fields: [[String]]
            var requestDate: Double
            var responseDate: Double
            var varying: [String: String?]
            var bodyLength: Int
        }

        var key: String
        var entries: [Entry]
    }

    /// The file's bytes for `key`'s `responses`; nil when the header cannot be encoded.
    static func encode(key: String, responses: [CachedResponse]) -> Data? {
        let header = Header(
            key: key,
            entries: responses.map { response in
                Header.Entry(
                    url: response.url.absoluteString, status: response.statusCode,
                    fields: response.headers.map { [$0.name, $0.value] },
                    requestDate: response.requestDate.timeIntervalSince1970,
                    responseDate: response.responseDate.timeIntervalSince1970,
                    varying: response.varyingRequestFields, bodyLength: response.data.count)
            })
        guard let json = try? JSONEncoder().encode(header), json.count <= maximumHeaderBytes else { return nil }
        var bytes = Data(magic)
        append(UInt64(json.count), bytes: 4, to: &bytes)
        bytes.append(json)
        for response in responses { bytes.append(response.data) }
        append(checksum(bytes), bytes: 8, to: &bytes)
        return bytes
    }

    /// The key and responses in `bytes`, or nil when the file is not a whole, intact one.
    static func decode(_ bytes: Data) -> (key: String, responses: [CachedResponse])? {
        let bytes = [UInt8](bytes)
        let fixed = magic.count + 4 + 8
        guard bytes.count >= fixed, Array(bytes[0..<magic.count]) == magic else { return nil }
        let body = bytes.count - 8
        guard read(bytes, at: body, count: 8) == checksum(bytes[0..<body]) else { return nil }
        let headerLength = Int(read(bytes, at: magic.count, count: 4))
        let headerStart = magic.count + 4
        guard headerLength <= maximumHeaderBytes, headerStart + headerLength <= body,
            let header = try? JSONDecoder().decode(Header.self, from: Data(bytes[headerStart..<headerStart + headerLength]))
        else { return nil }
        var offset = headerStart + headerLength
        var responses: [CachedResponse] = []
        for entry in header.entries {
            guard entry.bodyLength >= 0, offset + entry.bodyLength <= body, let url = URL(string: entry.url),
                entry.fields.allSatisfy({ $0.count == 2 })
            else { return nil }
            var headers = HTTPHeaders()
            for field in entry.fields { headers.add(name: field[0], value: field[1]) }
            responses.append(
                CachedResponse(
                    url: url, statusCode: entry.status, headers: headers, data: Data(bytes[offset..<offset + entry.bodyLength]),
                    requestDate: Date(timeIntervalSince1970: entry.requestDate),
                    responseDate: Date(timeIntervalSince1970: entry.responseDate), varyingRequestFields: entry.varying))
            offset += entry.bodyLength
        }
        guard offset == body else { return nil }
        return (header.key, responses)
    }

    /// The file name for `key`: its FNV-1a hash in hex, and the extension.
    static func fileName(for key: String) -> String {
        let hash = checksum(Array(key.utf8)[...])
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + ".wickcache"
    }

    /// FNV-1a, 64 bits.
    static func checksum(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }


    private static func append(_ value: UInt64, bytes count: Int, to data: inout Data) {
        for index in 0..<count { data.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    private static func read(_ bytes: [UInt8], at offset: Int, count: Int) -> UInt64 {
        (0..<count).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
    }
}
