// The layers the `cost` suite charges a request's instructions and allocations to.

/// Where a function belongs on a request's path. Functions that belong nowhere (the Swift
/// runtime's retain and release, the stdlib's generic code, malloc, memcpy, C shims) are charged
/// to the nearest caller that belongs somewhere: a retain in the codec is the codec's cost. Lines
/// of code are the exception: a line belongs to the function it holds, so the runtime's and the C
/// library's lines are `sharedCode`'s.
enum CostLayer: String, CaseIterable, Hashable {
    case session = "session (Wick: Session, Request, serializers)"
    case transport = "transport (WickTransport: exchange, driver, pool runner)"
    case pool = "pool (WickPool state machine)"
    case codec = "codec (WickHTTP1, WickCore, zlib)"
    case tls = "TLS (WickTLS, OpenSSL)"
    case reactor = "reactor (WickReactor: epoll loop, channel, syscall wrappers)"
    case scheduling = "scheduling (Swift concurrency runtime, Dispatch)"
    case foundation = "Foundation (URL, Data)"
    case libcurl = "libcurl"
    case harness = "benchmark harness"
    case sharedCode = "Swift runtime, standard library, C library (code lines only)"
    case unplaced = "reached from none of the above (thread start, dynamic linker)"

    /// Swift modules by the name their mangled symbols carry.
    private static let modules: [Substring: CostLayer] = [
        "Wick": .session, "WickTransport": .transport, "WickPool": .pool, "WickHTTP1": .codec, "WickCore": .codec,
        "WickTLS": .tls, "WickReactor": .reactor, "wick_bench": .harness, "FoundationEssentials": .foundation,
        "Foundation": .foundation, "Dispatch": .scheduling,
    ]

    /// The layer of `function` (a symbol, Swift-mangled or C) loaded from `object`, or nil when it
    /// belongs to none and its caller pays.
    static func of(function: Substring, object: Substring) -> CostLayer? {
        if let module = swiftModule(of: function) { return modules[module] }
        if function.hasPrefix("bench_") { return .harness }
        let file = object.split(separator: "/").last ?? object
        if file.hasPrefix("libssl") || file.hasPrefix("libcrypto") { return .tls }
        if file.hasPrefix("libz.") { return .codec }
        if file.hasPrefix("libcurl") { return .libcurl }
        if file.hasPrefix("libswift_Concurrency") || file.hasPrefix("libdispatch") { return .scheduling }
        if file.hasPrefix("libFoundation") || file.hasPrefix("lib_FoundationICU") { return .foundation }
        return nil
    }

    /// The module of a Swift symbol (`$s4Wick7SessionC...` is `Wick`'s), or nil when the symbol
    /// is not Swift's or its first entity is the standard library's (`$sS...`).
    private static func swiftModule(of symbol: Substring) -> Substring? {
        guard symbol.hasPrefix("$s") else { return nil }
        let rest = symbol.dropFirst(2)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard let length = Int(digits), length > 0 else { return nil }
        let name = rest.dropFirst(digits.count)
        guard name.count >= length else { return nil }
        return name.prefix(length)
    }
}
