// Encodes an Encodable value as an `application/x-www-form-urlencoded` string, as Alamofire's encoder does.
public import FoundationEssentials

/// Encodes `Encodable` values as URL-encoded form strings (`a=1&b%5Bc%5D=2`), for a query or a
/// body. The value must encode as a keyed container (a struct, a class or a `[String: ...]`
/// dictionary); nested containers become `parent[child]` keys and arrays `key[]` keys, each
/// percent-escaped.
///
/// The defaults are Alamofire's: arrays `.brackets`, bools `.numeric`, data `.base64`, dates
/// `.deferredToDate`, keys as they are, key paths `.brackets`, nil values dropped, spaces `%20`,
/// `URLQueryCharacterSet.afURLQueryAllowed`, pairs sorted. One departure: with
/// `alphabetizeKeyValuePairs` on, Alamofire also sorts the pairs of an array (`a[]=2&a[]=1`
/// becomes `a[]=1&a[]=2`); Wick keeps an array's order, which is data.
public struct URLEncodedFormEncoder: Sendable {
    /// Why a value cannot be encoded as a form.
    public enum Error: Swift.Error, Sendable, CustomStringConvertible {
        /// The value encoded as something other than a keyed container: `object` describes it
        /// (`a string`, `an array`).
        case invalidRootObject(String)

        /// What went wrong, for people.
        public var description: String {
            switch self {
            case .invalidRootObject(let object):
                "URLEncodedFormEncoder requires a keyed root object (a struct, class or [String: ...]); got \(object)"
            }
        }
    }

    /// Whether the pairs of each object are sorted (by their escaped text), so the same
    /// parameters always give the same string. Off: members keep the order they were encoded in
    /// (which for a `Dictionary` changes from run to run). Arrays always keep their order.
    public var alphabetizeKeyValuePairs: Bool
    /// How array elements are keyed.
    public var arrayEncoding: ArrayEncoding
    /// How `Bool` values are written.
    public var boolEncoding: BoolEncoding
    /// How `Data` values are written.
    public var dataEncoding: DataEncoding
    /// How `Date` values are written.
    public var dateEncoding: DateEncoding
    /// How keys are rewritten (applied to each pair's whole key, `parentKey[childKey]`, as
    /// Alamofire does).
    public var keyEncoding: KeyEncoding
    /// How a nested object's keys are joined to their parent's.
    public var keyPathEncoding: KeyPathEncoding
    /// How `nil` values are written.
    public var nilEncoding: NilEncoding
    /// How spaces are written.
    public var spaceEncoding: SpaceEncoding
    /// The characters left unescaped in keys and values.
    public var allowedCharacters: URLQueryCharacterSet

    /// An encoder with the given settings; the defaults are Alamofire's.
    public init(
        alphabetizeKeyValuePairs: Bool = true,
        arrayEncoding: ArrayEncoding = .brackets,
        boolEncoding: BoolEncoding = .numeric,
        dataEncoding: DataEncoding = .base64,
        dateEncoding: DateEncoding = .deferredToDate,
        keyEncoding: KeyEncoding = .useDefaultKeys,
        keyPathEncoding: KeyPathEncoding = .brackets,
        nilEncoding: NilEncoding = .dropKey,
        spaceEncoding: SpaceEncoding = .percentEscaped,
        allowedCharacters: URLQueryCharacterSet = .afURLQueryAllowed
    ) {
        self.alphabetizeKeyValuePairs = alphabetizeKeyValuePairs
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
        self.dataEncoding = dataEncoding
        self.dateEncoding = dateEncoding
        self.keyEncoding = keyEncoding
        self.keyPathEncoding = keyPathEncoding
        self.nilEncoding = nilEncoding
        self.spaceEncoding = spaceEncoding
        self.allowedCharacters = allowedCharacters
    }

    /// `value` as a URL-encoded form string, already percent-escaped (valid as a URL query).
    /// An object with no pairs (an empty dictionary, every value nil) gives the empty string.
    /// - Throws: `URLEncodedFormEncoder.Error.invalidRootObject` when `value` is not a keyed
    ///   container; `EncodingError` or any error from `value.encode(to:)`; the error of a `.custom`
    ///   data or date encoding.
    public func encode(_ value: any Encodable) throws -> String {
        let root = URLEncodedFormNode()
        var container = URLEncodedFormValueEncoder.SingleValueContainer(
            node: root, codingPath: [], options: valueOptions)
        try container.encode(value)
        switch root.kind {
        case .object, .empty: break
        case .string: throw Error.invalidRootObject("a single value (\"\(root.string)\")")
        case .array: throw Error.invalidRootObject("an array of \(root.elements.count) elements")
        }
        return URLEncodedFormSerializer(encoder: self).serialize(root)
    }

    /// `value` as the UTF-8 bytes of `encode(_:) -> String`.
    /// - Throws: as `encode(_:) -> String`.
    public func encode(_ value: any Encodable) throws -> Data {
        let string: String = try encode(value)
        return Data(string.utf8)
    }

    /// The settings the value encoder needs (the rest are the serializer's).
    private var valueOptions: URLEncodedFormValueEncoder.Options {
        .init(
            boolEncoding: boolEncoding, dataEncoding: dataEncoding, dateEncoding: dateEncoding, nilEncoding: nilEncoding
        )
    }
}
