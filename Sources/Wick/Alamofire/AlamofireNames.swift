// The names Alamofire code is written with, so that porting starts by changing the import.

/// The default session, as Alamofire's `AF`: `Session.default`, which lives for the process.
public let AF = Session.default

/// Alamofire's error type is Wick's: every `AFError` case has its `WickError` counterpart, and
/// the accessors Alamofire code reads (`isExplicitlyCancelledError`, `responseCode`,
/// `underlyingError`, ...) are on `WickError`.
public typealias AFError = WickError

/// A `DataResponse` whose failure is a `WickError`, as Alamofire's `AFDataResponse`.
public typealias AFDataResponse<Success: Sendable> = DataResponse<Success, WickError>

/// A `DownloadResponse` whose failure is a `WickError`, as Alamofire's `AFDownloadResponse`.
public typealias AFDownloadResponse<Success: Sendable> = DownloadResponse<Success, WickError>

/// A `Result` whose failure is a `WickError`, as Alamofire's `AFResult`.
public typealias AFResult<Success> = Result<Success, WickError>

extension Error {
    /// This error as a `WickError`, or nil when it is another kind (Alamofire's `asAFError`).
    public var asAFError: WickError? { self as? WickError }

    /// This error as a `WickError`; traps with `message` when it is another kind (Alamofire's
    /// `asAFError(orFailWith:)`, for code that knows the error came from Wick).
    public func asAFError(
        orFailWith message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line
    ) -> WickError {
        guard let error = self as? WickError else { fatalError(message(), file: file, line: line) }
        return error
    }

    /// This error as a `WickError`, or the error `default` makes when it is another kind
    /// (Alamofire's `asAFError(or:)`).
    public func asAFError(or default: @autoclosure () -> WickError) -> WickError {
        (self as? WickError) ?? `default`()
    }
}
