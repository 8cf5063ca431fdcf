// The plain socket as a `TLSCarrier`: what TLS and a proxy's CONNECT run over without a proxy TLS session.
public import WickReactor

extension Channel: TLSCarrier {
    /// `options.maximumBufferedBytes` less the bytes queued.
    public var writeCapacity: Int { options.maximumBufferedBytes - bufferedBytes }

    /// `options.maximumBufferedBytes`.
    public var maximumBufferedBytes: Int { options.maximumBufferedBytes }

    /// `shutdownWrite()`: a FIN once queued bytes are sent; reading goes on, and the peer's FIN
    /// closes the channel. Does nothing once closed.
    public func finishWriting() {
        try? shutdownWrite()
    }
}
