// Changing a body before a serializer reads it: Alamofire's DataPreprocessor and its two kinds.
public import FoundationEssentials

/// Changes a non-empty response body before a `ResponseSerializer` reads it (Alamofire's
/// `DataPreprocessor`), e.g. to strip an anti-XSSI prefix.
public protocol DataPreprocessor: Sendable {
    /// The body to serialize.
    /// - Throws: any error; the request reports a `WickError` as it is and any other as
    ///   `responseSerializationFailed(reason: .customSerializationFailed(error:))`.
    func preprocess(_ data: Data) throws -> Data
}

/// Hands the body over unchanged: every serializer's default.
public struct PassthroughPreprocessor: DataPreprocessor {
    /// A preprocessor.
    public init() {}

    /// `data`, unchanged; never throws.
    public func preprocess(_ data: Data) throws -> Data { data }
}

/// Removes the `)]}',` line Google's APIs put before JSON against cross-site script inclusion
/// (the six bytes `)]}',\n`), when the body starts with it.
public struct GoogleXSSIPreprocessor: DataPreprocessor {
    /// The prefix removed.
    static let prefix = Data(")]}',\n".utf8)

    /// A preprocessor.
    public init() {}

    /// `data` without the prefix (a copy indexed from 0), or unchanged; never throws.
    public func preprocess(_ data: Data) throws -> Data {
        data.starts(with: Self.prefix) ? Data(data.dropFirst(Self.prefix.count)) : data
    }
}

extension DataPreprocessor where Self == PassthroughPreprocessor {
    /// `PassthroughPreprocessor()`.
    public static var passthrough: PassthroughPreprocessor { PassthroughPreprocessor() }
}

extension DataPreprocessor where Self == GoogleXSSIPreprocessor {
    /// `GoogleXSSIPreprocessor()`.
    public static var googleXSSI: GoogleXSSIPreprocessor { GoogleXSSIPreprocessor() }
}
