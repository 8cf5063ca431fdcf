// Serializing a stream chunk by chunk: Alamofire's DataStreamSerializer and its three kinds.
public import FoundationEssentials

/// Turns each chunk of a streamed body into a value, as it arrives (Alamofire's
/// `DataStreamSerializer`), for `DataStreamRequest.responseStream(using:on:stream:)`.
///
/// A chunk is one socket read, not a unit the server chose: a serializer that needs whole
/// records (lines, JSON values) should use `responseStreamDecodable`, which reassembles
/// newline-delimited values across reads.
public protocol DataStreamSerializer<SerializedObject>: Sendable {
    /// The value each chunk becomes.
    associatedtype SerializedObject: Sendable

    /// The value of one chunk.
    /// - Throws: any error; the stream reports a `WickError` as it is and any other as
    ///   `responseSerializationFailed(reason: .customSerializationFailed(error:))`.
    func serialize(_ data: Data) throws -> SerializedObject
}

/// Decodes each chunk as one value (Alamofire's `DecodableStreamSerializer`).
public struct DecodableStreamSerializer<Value: Decodable & Sendable>: DataStreamSerializer {
    /// The decoder.
    public let decoder: any DataDecoder
    /// Runs on each chunk before it is decoded.
    public let dataPreprocessor: any DataPreprocessor

    /// A serializer decoding `Value` with `decoder`.
    public init(
        decoder: any DataDecoder = JSONDecoder(), dataPreprocessor: any DataPreprocessor = PassthroughPreprocessor()
    ) {
        self.decoder = decoder
        self.dataPreprocessor = dataPreprocessor
    }

    /// The chunk, preprocessed and decoded.
    /// - Throws: the preprocessor's error, or `responseSerializationFailed(reason:
    ///   .decodingFailed(error:))` with the decoder's.
    public func serialize(_ data: Data) throws -> Value {
        let processed = try dataPreprocessor.preprocess(data)
        do {
            return try decoder.decode(Value.self, from: processed)
        } catch {
            throw WickError.responseSerializationFailed(reason: .decodingFailed(error: error))
        }
    }
}

/// Hands each chunk over as it is (Alamofire's `PassthroughStreamSerializer`).
public struct PassthroughStreamSerializer: DataStreamSerializer {
    /// A passthrough serializer.
    public init() {}

    /// The chunk.
    public func serialize(_ data: Data) -> Data { data }
}

/// Each chunk as UTF-8 text, invalid bytes replaced by U+FFFD (Alamofire's
/// `StringStreamSerializer`). A character split between two reads is two replacement
/// characters here; `responseStreamString` reassembles it instead.
public struct StringStreamSerializer: DataStreamSerializer {
    /// A string serializer.
    public init() {}

    /// The chunk decoded as UTF-8.
    public func serialize(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }
}

extension DataStreamSerializer where Self == PassthroughStreamSerializer {
    /// `PassthroughStreamSerializer()`.
    public static var passthrough: PassthroughStreamSerializer { PassthroughStreamSerializer() }
}

extension DataStreamSerializer where Self == StringStreamSerializer {
    /// `StringStreamSerializer()`.
    public static var string: StringStreamSerializer { StringStreamSerializer() }
}

extension DataStreamSerializer {
    /// `DecodableStreamSerializer` for `type`.
    public static func decodable<Value: Decodable & Sendable>(
        of type: Value.Type, decoder: any DataDecoder = JSONDecoder(),
        dataPreprocessor: any DataPreprocessor = PassthroughPreprocessor()
    ) -> Self where Self == DecodableStreamSerializer<Value> {
        DecodableStreamSerializer<Value>(decoder: decoder, dataPreprocessor: dataPreprocessor)
    }
}

/// A `DataStreamParser` running a `DataStreamSerializer` on each chunk.
struct SerializingStreamParser<Serializer: DataStreamSerializer>: DataStreamParser {
    let serializer: Serializer

    func parse(_ chunk: Data, into elements: inout [Result<Serializer.SerializedObject, WickError>]) {
        elements.append(SerializerRun { try serializer.serialize(chunk) }.result)
    }
    func finish(into elements: inout [Result<Serializer.SerializedObject, WickError>]) {}
    func reset() {}
}
