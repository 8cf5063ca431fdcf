// Writes an instrument's propagation fields (W3C traceparent, tracestate, ...) into Wick headers.
public import Instrumentation
public import Wick

/// The `Injector` that puts an instrument's fields into a Wick request's `HTTPHeaders`: a W3C
/// Trace Context instrument (swift-otel's) writes `traceparent` and `tracestate` through it.
/// A field already present is replaced, so a retried request never carries two.
public struct HTTPHeadersInjector: Injector {
    /// An injector.
    public init() {}

    /// Sets the field `key` to `value`.
    public func inject(_ value: String, forKey key: String, into carrier: inout HTTPHeaders) {
        carrier.update(name: key, value: value)
    }
}
