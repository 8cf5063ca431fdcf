// Every delivery reassembles to its input.
import Testing
import WickTestSupport

@Suite struct DeliveryTests {
    @Test func everyDeliveryReassemblesTheInput() {
        let input = Array("HTTP/1.1 200 OK\r\n\r\n".utf8)
        let deliveries = Delivery.all(of: input) + [Delivery.chunks(input, size: 4)]
        #expect(deliveries.count == input.count + 4)
        for delivery in deliveries {
            #expect(Array(delivery.pieces.joined()) == input, "\(delivery)")
        }
        #expect(Delivery.byteAtATime(input).pieces.allSatisfy { $0.count == 1 })
    }
}
