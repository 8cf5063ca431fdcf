// Which methods take their encoded parameters in the query rather than the body.

extension HTTPMethod {
    /// Whether a method-dependent destination puts parameters in the query: `GET`, `HEAD` and
    /// `DELETE`, whose bodies have no defined meaning (RFC 9110 §9.3); every other method gets a body.
    var encodesParametersInURL: Bool {
        self == .get || self == .head || self == .delete
    }
}
