// A channel over a scripted kernel, for code outside WickReactor that plays the peer (SPI).

extension Channel {
    /// A channel on `loop` whose reads and writes go to `io` instead of the kernel, registered
    /// with the loop (no interest yet) as a connected socket's channel would be. `fd` must be a
    /// real, open, non-blocking socket (epoll has to accept it, and its readiness is what wakes
    /// the channel); the channel owns it from here on and closes it when it closes. Call on
    /// `loop`'s thread, then `start(delegate:)` as usual.
    ///
    /// SPI (`@_spi(WickSocketSeam)`), not API: the whole-client fuzz target opens its pool's
    /// connections with it (see `TransportDialer`).
    /// - Throws: `ReactorError` when the loop refuses the registration (`.loopShutDown` while it
    ///   closes, or `epoll_ctl`'s error); the descriptor is then not registered and still the
    ///   caller's.
    @_spi(WickSocketSeam) public convenience init(
        registering fd: Int32, on loop: EventLoop, remoteAddress: SocketAddress,
        options: SocketOptions = SocketOptions(), io: SocketIO
    ) throws(ReactorError) {
        self.init(fd: fd, loop: loop, remoteAddress: remoteAddress, options: options, io: io)
        try loop.register(fd: fd, interest: 0, handler: self)
    }
}
