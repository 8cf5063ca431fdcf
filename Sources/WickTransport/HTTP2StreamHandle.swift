// One HTTP/2 stream as its exchange sees it: cancel it, pause and resume its body.
import WickHTTP2
import WickTLS

/// The `ExchangeCarrier` of a request on an HTTP/2 connection: its driver and stream. Cancelling
/// resets this stream only (RST_STREAM CANCEL); the connection's other streams go on. Used on the
/// connection's loop only, as the driver is.
final class HTTP2StreamHandle: ExchangeCarrier {
    /// The driver; weak, since the driver holds its streams' handles.
    private weak var driver: HTTP2ConnectionDriver?
    /// The stream, once opened.
    var streamID: HTTP2StreamID?
    let connectionDetails: StreamConnectionDetails

    init(driver: HTTP2ConnectionDriver, connectionDetails: StreamConnectionDetails) {
        self.driver = driver
        self.connectionDetails = connectionDetails
    }

    func cancelRequest() {
        guard let streamID else { return }
        driver?.cancelStream(streamID)
    }

    func consumerBecameFull() {
        guard let streamID else { return }
        driver?.consumerBecameFull(on: streamID)
    }

    func consumerWantsMore() {
        guard let streamID else { return }
        driver?.consumerWantsMore(on: streamID)
    }

    var carriesOtherRequests: Bool {
        (driver?.openStreamCount ?? 0) > 1
    }

    /// The connection's socket, which every stream's frames arrive on.
    var readinessDescriptor: Int32? { driver?.channel.readinessDescriptor }

    /// Whether the connection's record (its streams share it) lets a caller wait.
    func inlineWaitMayBegin() -> Bool { driver?.inlineWaits.callerMayWait() ?? false }

    func inlineWaitEnded(ranOut: Bool) { driver?.inlineWaits.record(ranOut: ranOut) }
}
