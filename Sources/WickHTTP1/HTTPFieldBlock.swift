// A parsed section's fields copied out of the parser's storage into one allocation of their size.
//
// Unsafe code: this file, HTTPHeadStorage.swift and HTTPResponseParser+Scanning.swift only.

import WickCore

/// Field lines that outlive the parser's section: one allocation holding the field ranges and,
/// after them, the bytes those ranges point into (rebased to start at zero). `HTTPHeaders` reads
/// it on demand (`HTTPFieldSource`), so a head nobody reads costs one allocation and a copy of
/// its bytes instead of two strings per field, and it never keeps the parser's storage alive.
/// Immutable once made, hence readable from any thread, as `HTTPFieldSource` requires.
final class HTTPFieldBlock: ManagedBuffer<HTTPFieldBlock.Size, HTTPFieldRange> {
    /// How many fields and bytes the block holds, and which names its fields may have.
    struct Size {
        let fields: Int
        let bytes: Int
        let names: HTTPFieldNameSummary
    }

    /// A block holding the fields of `list`, which must not be empty.
    static func copying(_ list: HTTPFieldList) -> HTTPFieldBlock {
        precondition(!list.isEmpty, "an empty field list needs no block")
        let storage = list.storage
        var byteStart = Int.max
        var byteEnd = 0
        for index in list.fieldRange {
            let field = storage.field(at: index)
            byteStart = min(byteStart, field.nameStart)
            byteEnd = max(byteEnd, field.valueEnd)
        }
        let rangeStride = MemoryLayout<HTTPFieldRange>.stride
        let byteCount = byteEnd - byteStart
        let capacity = list.count + (byteCount + rangeStride - 1) / rangeStride
        let created = create(minimumCapacity: capacity) { _ in
            Size(fields: list.count, bytes: byteCount, names: list.nameSummary)
        }
        // SAFETY: `create` returns an instance of the class it is called on.
        let block = unsafeDowncast(created, to: HTTPFieldBlock.self)
        block.withUnsafeMutablePointerToElements { elements in
            for (offset, index) in list.fieldRange.enumerated() {
                let field = storage.field(at: index)
                // SAFETY: offset < list.count <= capacity; HTTPFieldRange is trivial, so
                // initializing a slot needs no prior value.
                (elements + offset).initialize(
                    to: HTTPFieldRange(
                        nameStart: field.nameStart - byteStart, nameEnd: field.nameEnd - byteStart,
                        valueStart: field.valueStart - byteStart, valueEnd: field.valueEnd - byteStart))
            }
            storage.withBytes(byteStart..<byteEnd) { source in
                // SAFETY: `source` is the storage's written bytes byteStart..<byteEnd, valid in this
                // closure; a nil base means an empty range, with nothing to copy.
                guard let base = source.baseAddress else { return }
                // SAFETY: the bytes start after list.count ranges and need byteCount bytes, which
                // the capacity's remaining (byteCount + stride - 1) / stride ranges cover.
                UnsafeMutableRawPointer(elements + list.count).copyMemory(from: base, byteCount: source.count)
            }
        }
        return block
    }

    /// The block's size, read through the header's address: reading `header` (a stored
    /// property of the class) checked exclusivity at run time, two runtime calls a lookup.
    private var size: Size {
        // SAFETY: the header was initialized by `create` and is never written after it.
        withUnsafeMutablePointerToHeader { $0.pointee }
    }

    /// Calls `body` with the range of the field at `position` and the block's bytes.
    private func withField<Result>(
        at position: Int, _ body: (HTTPFieldRange, UnsafeRawBufferPointer) -> Result
    ) -> Result {
        let size = size
        precondition(position >= 0 && position < size.fields, "field \(position) outside 0..<\(size.fields)")
        return withUnsafeMutablePointerToElements { elements in
            // SAFETY: position is below the field count (checked above), so its range was
            // initialized in `copying`; the bytes follow the ranges and are size.bytes long, and
            // every range lies inside them. Nothing writes after `copying` returns.
            let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(elements + size.fields), count: size.bytes)
            return body(elements[position], bytes)
        }
    }
}

extension HTTPFieldBlock: HTTPFieldSource {
    var fieldCount: Int { size.fields }

    func field(at position: Int) -> HTTPHeader {
        withField(at: position) { field, bytes in
            HTTPHeader(
                name: String(decoding: bytes[field.nameStart..<field.nameEnd], as: UTF8.self),
                value: String(decoding: bytes[field.valueStart..<field.valueEnd], as: UTF8.self))
        }
    }

    func value(at position: Int) -> String {
        withField(at: position) { field, bytes in
            String(decoding: bytes[field.valueStart..<field.valueEnd], as: UTF8.self)
        }
    }

    func firstPosition(ofName name: String) -> Int? {
        var name = name
        let size = size
        // SAFETY: `name` is a local String whose UTF-8 buffer is valid inside the closure; the
        // first size.fields elements are the ranges initialized in `copying`, the bytes follow
        // them and are size.bytes long, and every range lies inside them.
        return name.withUTF8 { name in
            guard size.names.mayContain(name) else { return nil }
            return withUnsafeMutablePointerToElements { elements in
                let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(elements + size.fields), count: size.bytes)
                for position in 0..<size.fields {
                    let field = elements[position]
                    // Lengths first: most names differ in length from the one asked for.
                    guard field.nameEnd - field.nameStart == name.count else { continue }
                    if UnsafeRawBufferPointer(rebasing: bytes[field.nameStart..<field.nameEnd]).equalsIgnoringASCIICase(
                        name)
                    {
                        return position
                    }
                }
                return nil
            }
        }
    }

    func hasName(_ name: String, at position: Int) -> Bool {
        var name = name
        // SAFETY: `name` is a local String whose UTF-8 buffer is valid inside the closure; the
        // field's name range lies inside the block's bytes, valid inside `withField`'s closure.
        return name.withUTF8 { name in
            withField(at: position) { field, bytes in
                UnsafeRawBufferPointer(rebasing: bytes[field.nameStart..<field.nameEnd]).equalsIgnoringASCIICase(name)
            }
        }
    }
}
