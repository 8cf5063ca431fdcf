// Result's throwing transforms, which the responses' tryMap and tryMapError are built on.
extension Result {
    /// The success transformed by `transform`, or what it throws as the failure; a failure is
    /// kept as it is.
    func tryMap<NewSuccess>(_ transform: (Success) throws -> NewSuccess) -> Result<NewSuccess, any Error> {
        switch self {
        case .success(let value): Result<NewSuccess, any Error> { try transform(value) }
        case .failure(let error): .failure(error)
        }
    }

    /// The failure transformed by `transform`, or what it throws as the failure; a success is
    /// kept as it is.
    func tryMapError<NewFailure: Error>(_ transform: (Failure) throws -> NewFailure) -> Result<Success, any Error> {
        guard case .failure(let error) = self else { return mapError { $0 } }
        do {
            return .failure(try transform(error))
        } catch {
            return .failure(error)
        }
    }
}
