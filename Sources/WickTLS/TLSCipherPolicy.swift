// Which TLS 1.2 cipher suites a client offers: RFC 9325's strict list by default, a named leniency for old servers.

/// The TLS 1.2 cipher lists, in OpenSSL's syntax, that `TLSConfiguration` chooses between.
/// (TLS 1.3 suites are all AEAD with ephemeral key exchange, so only TLS 1.2 needs a policy;
/// TLS 1.0 and 1.1 are never offered, RFC 8996, since `TLSVersion` cannot name them.)
///
/// RFC 9325 §4.1, and the choices made from it:
/// - MUST NOT: NULL encryption, RC4, anything under 112 bits of security (export and single
///   DES). `forbidden` removes these from every list, a caller's own `cipherList` included.
///   Anonymous suites go too: they authenticate no server.
/// - SHOULD NOT: static RSA key transport (no forward secrecy: the server's key, stolen later,
///   opens every recorded session; and the Bleichenbacher padding oracles, ROBOT), static
///   (EC)DH, and algorithms under 128 bits (3DES, also broken by SWEET32). None of these is in
///   `strict`; only static RSA comes back with `legacy`, never 3DES or static DH.
/// - §4.2 recommends the ECDHE suites with AES-GCM, and AEAD modes generally. CBC suites
///   (HMAC-SHA1 or SHA-2) are MAC-then-encrypt in TLS 1.2, the design behind the Lucky Thirteen
///   and POODLE-style padding-oracle attacks, so `strict` leaves them out too; ChaCha20-Poly1305
///   (RFC 7905) is AEAD with ECDHE and stays. Finite-field DHE is left out as well: servers pick
///   the group, often a weak one, and the Raccoon attack targets it (the TLS working group's
///   draft-ietf-tls-deprecate-obsolete-kex deprecates it).
enum TLSCipherPolicy {
    /// The default: ECDHE key exchange with AES-GCM or ChaCha20-Poly1305.
    static let strict = "ECDHE+AESGCM:ECDHE+CHACHA20"
    /// `TLSConfiguration.allowsLegacyCipherSuites`: the strict list first, then ECDHE with
    /// AES-CBC, then static RSA with AES (GCM first), for servers that offer nothing better.
    static let legacy = strict + ":ECDHE+AES:kRSA+AESGCM:kRSA+AES"
    /// Appended to every list: OpenSSL's `!` removes these whatever came before.
    static let forbidden = "!aNULL:!eNULL:!EXPORT:!LOW:!RC4:!3DES:!DES:!MD5:!PSK:!SRP:!kDH:!kECDH:!kDHE"

    /// The list a configuration gives OpenSSL.
    static func cipherList(for configuration: TLSConfiguration) -> String {
        let base = configuration.cipherList ?? (configuration.allowsLegacyCipherSuites ? legacy : strict)
        return base + ":" + forbidden
    }
}
