// Header fields both ways: Wick's HTTPHeaders and swift-http-types' HTTPFields.
public import HTTPTypes
public import Wick

extension HTTPFields {
    /// `headers` as swift-http-types fields: every field in order, names as written (their
    /// `rawName`), duplicates kept.
    /// - Throws: `WickError.conversionFailed(.invalidFieldName)` for a name that is not a token.
    public init(_ headers: HTTPHeaders) throws(WickError) {
        self.init()
        reserveCapacity(headers.count)
        for header in headers {
            guard let name = HTTPField.Name(header.name) else {
                throw .conversionFailed(reason: .invalidFieldName(header.name))
            }
            append(HTTPField(name: name, value: header.value))
        }
    }
}

extension HTTPHeaders {
    /// `fields` as Wick headers: every field in order, names as written, duplicates kept.
    /// Always succeeds: every `HTTPFields` value is a valid Wick header list.
    public init(_ fields: HTTPFields) {
        self.init()
        reserveCapacity(fields.count)
        for field in fields { add(name: field.name.rawName, value: field.value) }
    }
}
