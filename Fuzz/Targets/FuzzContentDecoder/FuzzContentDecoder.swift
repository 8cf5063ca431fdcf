// Fuzzes ContentDecoder over gzip and deflate (alone, stacked, and beside codings it passes
// through) with the shared oracle of ContentDecoderOracle: decode or throw, never trap, limits
// kept, the same result whole and in pieces.
import CFuzzDriver
import ContentDecoderOracle

@main enum Main {
    static func main() { cfuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzContentDecoder) }
}

private let codingLists: [[String]] = [
    ["gzip"], ["deflate"], ["gzip, gzip"], ["gzip", "deflate"], ["identity"], ["compress"], ["x-gzip"],
    ["gzip, gzip, gzip, gzip"],
]

/// libFuzzer's entry point: checks one input with the shared oracle; never returns non-zero.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContentDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // SAFETY: libFuzzer passes `size` readable bytes at `data` (nil only when size is 0) for the
    // duration of this call; they are copied at once.
    checkContentDecoder(Array(UnsafeBufferPointer(start: data, count: size)), codingLists: codingLists)
    return 0
}
