// The collected body's block: copies, reads in place, growth, and handing it out as Data.
import Foundation
import Testing

@testable import WickTransport

@Suite struct CollectedBodyTests {
    @Test func appendedBytesAreCopiedAndHandedOutAsData() {
        var body = CollectedBody()
        let parts: [[UInt8]] = [Array("hello, ".utf8), Array(repeating: 0x78, count: 5000), Array("!".utf8)]
        for part in parts { part.withUnsafeBytes { body.append($0) } }
        #expect(body.count == 5008)
        let data = body.take()
        #expect(Array(data) == parts.flatMap { $0 })
        #expect(body.count == 0 && body.take().isEmpty)
    }

    @Test func bytesReadIntoTheSpareCapacityAreCountedNotCopied() throws {
        var body = CollectedBody()
        body.reserveCapacity(100)
        Array("head".utf8).withUnsafeBytes { body.append($0) }
        let lent = body.spareCapacity(maximum: 10)
        let spare = try #require(lent)
        #expect(spare.count == 10)
        spare.copyBytes(from: Array("0123456789".utf8))
        body.append(UnsafeRawBufferPointer(spare))
        #expect(body.count == 14)
        // No more than the block holds is lent, and none once it is full.
        let rest = body.spareCapacity(maximum: 1000)
        #expect(rest?.count == 86)
        #expect(Array(body.take()) == Array("head0123456789".utf8))
    }

    @Test func aFullBlockLendsNothingAndGrowsOnAppend() {
        var body = CollectedBody()
        let beforeAny = body.spareCapacity(maximum: 10)
        #expect(beforeAny == nil)
        body.reserveCapacity(4)
        Array("abcd".utf8).withUnsafeBytes { body.append($0) }
        let whenFull = body.spareCapacity(maximum: 10)
        #expect(whenFull == nil)
        Array("efgh".utf8).withUnsafeBytes { body.append($0) }
        #expect(Array(body.take()) == Array("abcdefgh".utf8))
    }

    @Test func aLentChunkBecomesDataWithoutACopyAndShrinksToItsBytes() throws {
        var chunk = CollectedBody()
        let lent = chunk.lendChunk(maximum: 1 << 20, room: 0)
        let room = try #require(lent)
        #expect(room.count == 64 * 1024)
        room.copyBytes(from: Array("read in place".utf8))
        chunk.append(UnsafeRawBufferPointer(rebasing: room[..<13]))
        let data = chunk.take()
        #expect(Array(data) == Array("read in place".utf8) && chunk.count == 0)
        // A lend that no read used is kept for the next one.
        let first = chunk.lendChunk(maximum: 100, room: 0)?.baseAddress
        let again = chunk.lendChunk(maximum: 100, room: 0)?.baseAddress
        #expect(first != nil && first == again)
    }

    @Test func removeAllForgetsTheBody() {
        var body = CollectedBody()
        Array("stale".utf8).withUnsafeBytes { body.append($0) }
        body.removeAll()
        #expect(body.count == 0)
        Array("fresh".utf8).withUnsafeBytes { body.append($0) }
        #expect(Array(body.take()) == Array("fresh".utf8))
    }
}
