// Fuzzes ContentDecoder's zstd layer (libzstd behind Wick's limits and 8 MiB window cap), alone and
// stacked, with the shared oracle of ContentDecoderOracle: decode or throw, never trap, limits
// kept, the same result whole and in pieces.
import CFuzzDriver
import ContentDecoderOracle

@main enum Main {
    static func main() { cfuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzZstdDecoder) }
}

private let codingLists: [[String]] = [["zstd"], ["zstd"], ["zstd"], ["zstd, zstd"], ["gzip, zstd"], ["br, zstd"]]

/// libFuzzer's entry point: checks one input with the shared oracle; never returns non-zero.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzZstdDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // SAFETY: libFuzzer passes `size` readable bytes at `data` (nil only when size is 0) for the
    // duration of this call; they are copied at once.
    checkContentDecoder(Array(UnsafeBufferPointer(start: data, count: size)), codingLists: codingLists)
    return 0
}
