// A benchmark input: bytes loaded once into stable memory, and how to split them into pieces.
import Foundation

/// Bytes at a fixed address for the whole run, so that every peer parses the same memory.
final class ByteInput: @unchecked Sendable {
    let name: String
    /// Owned by this object; never written after init.
    let bytes: UnsafeMutableRawBufferPointer

    init(name: String, contents: [UInt8]) {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(contents.count, 1), alignment: 64)
        // SAFETY: `bytes` has room for contents.count bytes.
        contents.withUnsafeBytes { bytes.copyMemory(from: $0) }
        self.name = name
        self.bytes = bytes
        count = contents.count
    }

    /// The input's length.
    let count: Int

    /// The input as a read-only buffer of exactly `count` bytes.
    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[0..<count]) }

    /// The end offsets of `pieces` nearly equal pieces (the last one is `count`).
    func pieceEnds(_ pieces: Int) -> [Int] {
        (1...pieces).map { count * $0 / pieces }
    }

    deinit { bytes.deallocate() }

    /// Loads `Inputs/<file>` of the Benchmarks package.
    static func load(_ file: String) throws -> ByteInput {
        let url = inputsDirectory.appendingPathComponent(file)
        return ByteInput(name: file, contents: [UInt8](try Data(contentsOf: url)))
    }

    /// `Benchmarks/Inputs`, found from this source file's location (wick-bench runs from its
    /// build directory, and the inputs are not resources).
    static let inputsDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Inputs")

    /// `Benchmarks/`, the package root.
    static let packageDirectory: URL = inputsDirectory.deletingLastPathComponent()
}
