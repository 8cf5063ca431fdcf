// A Session's proxy setting turned into the rules its requests use, the environment read once.

extension ProxySetting {
    /// The rules requests use, or nil when every request goes direct (`.none`, or nothing set
    /// in the environment); a failure when a variable in use is unusable. `environment` is
    /// read only for `.environment`.
    func resolved(
        environment: @autoclosure () -> [String: String]
    ) -> Result<ProxyRules?, ProxyConfigurationError> {
        switch self {
        case .none:
            return .success(nil)
        case .rules(let rules):
            return .success(rules.http == nil && rules.https == nil ? nil : rules)
        case .environment:
            do throws(ProxyConfigurationError) {
                let rules = try ProxyRules(environment: environment())
                return .success(rules.http == nil && rules.https == nil ? nil : rules)
            } catch {
                return .failure(error)
            }
        }
    }
}
