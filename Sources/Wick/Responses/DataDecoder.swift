// What decodes a body into a Decodable value: Alamofire's DataDecoder, met by JSONDecoder.
public import FoundationEssentials

/// Decodes `Data` into a `Decodable` type for `DecodableResponseSerializer` (Alamofire's
/// `DataDecoder`). `JSONDecoder` and `PropertyListDecoder` conform.
public protocol DataDecoder: Sendable {
    /// The value of type `type` in `data`.
    /// - Throws: any error; the serializer reports it as
    ///   `responseSerializationFailed(reason: .decodingFailed(error:))`.
    func decode<D: Decodable>(_ type: D.Type, from data: Data) throws -> D
}

extension JSONDecoder: DataDecoder {}

extension PropertyListDecoder: DataDecoder {}
