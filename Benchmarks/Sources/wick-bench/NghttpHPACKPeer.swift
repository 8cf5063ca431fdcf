// nghttp2's HPACK (libnghttp2 1.52, Debian) on the same header list as HPACKBenchmark.

import CBenchNghttp2
import WickHTTP2

/// Encodes and decodes one header list with nghttp2's `nghttp2_hd_*` API, cold: a fresh deflater
/// or inflater per list, as the `cold` rows of `HPACKBenchmark` do with Wick's.
///
/// The names and values live in one buffer this object owns; `fields` points into it.
final class NghttpHPACKPeer {
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private var fields: [nghttp2_nv]
    /// The list as nghttp2's deflater encodes it from fresh tables.
    private(set) var block: [UInt8] = []

    init(fields list: [HPACKHeaderField]) {
        let total = list.reduce(0) { $0 + $1.name.count + $1.value.count }
        bytes = .allocate(capacity: max(total, 1))
        fields = []
        var offset = 0
        for field in list {
            let name = bytes.baseAddress! + offset
            _ = UnsafeMutableBufferPointer(start: name, count: field.name.count).initialize(from: field.name)
            offset += field.name.count
            let value = bytes.baseAddress! + offset
            _ = UnsafeMutableBufferPointer(start: value, count: field.value.count).initialize(from: field.value)
            offset += field.value.count
            fields.append(
                nghttp2_nv(
                    name: name, value: value, namelen: field.name.count, valuelen: field.value.count,
                    flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)))
        }
        block = encodeOnce()
    }

    deinit { bytes.deallocate() }

    /// One list encoded by a fresh deflater.
    private func encodeOnce() -> [UInt8] {
        var deflater: OpaquePointer?
        precondition(nghttp2_hd_deflate_new(&deflater, 4096) == 0, "nghttp2_hd_deflate_new failed")
        defer { nghttp2_hd_deflate_del(deflater) }
        var output = [UInt8](repeating: 0, count: 4096)
        let length = output.withUnsafeMutableBufferPointer { buffer in
            nghttp2_hd_deflate_hd(deflater, buffer.baseAddress, buffer.count, fields, fields.count)
        }
        precondition(length > 0, "nghttp2_hd_deflate_hd failed: \(length)")
        return Array(output[..<length])
    }

    /// Encodes the list `count` times, each with a fresh deflater; returns the bytes written.
    func encodeCold(_ count: Int) -> Int {
        var output = [UInt8](repeating: 0, count: 4096)
        var checksum = 0
        output.withUnsafeMutableBufferPointer { buffer in
            for _ in 0..<count {
                var deflater: OpaquePointer?
                _ = nghttp2_hd_deflate_new(&deflater, 4096)
                checksum &+= nghttp2_hd_deflate_hd(deflater, buffer.baseAddress, buffer.count, fields, fields.count)
                nghttp2_hd_deflate_del(deflater)
            }
        }
        return checksum
    }

    /// Decodes `block` `count` times, each with a fresh inflater; returns the value bytes seen.
    func decodeCold(_ count: Int) -> Int {
        var checksum = 0
        let expected = fields.count
        block.withUnsafeBufferPointer { input in
            for _ in 0..<count {
                var inflater: OpaquePointer?
                _ = nghttp2_hd_inflate_new(&inflater)
                var position = 0
                var emitted = 0
                while true {
                    var field = nghttp2_nv()
                    var flags: Int32 = 0
                    let read = nghttp2_hd_inflate_hd2(
                        inflater, &field, &flags, input.baseAddress! + position, input.count - position, 1)
                    precondition(read >= 0, "nghttp2_hd_inflate_hd2 failed: \(read)")
                    position += read
                    if flags & Int32(NGHTTP2_HD_INFLATE_EMIT.rawValue) != 0 {
                        emitted += 1
                        checksum &+= field.valuelen
                    }
                    if flags & Int32(NGHTTP2_HD_INFLATE_FINAL.rawValue) != 0 {
                        nghttp2_hd_inflate_end_headers(inflater)
                        break
                    }
                }
                nghttp2_hd_inflate_del(inflater)
                precondition(emitted == expected, "nghttp2 decoded \(emitted) fields, expected \(expected)")
            }
        }
        return checksum
    }
}
