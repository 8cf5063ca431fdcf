// The wake-up peer: a thread asleep in epoll_wait on an eventfd, the floor under any event
// loop's cross-thread wake-up.
import CBenchSupport
import Dispatch
import Foundation
import Glibc
import Synchronization

/// Measures how long a bare eventfd write takes to wake a thread blocked in epoll_wait.
enum EventFDWaker {
    /// `count` wake-up latencies in nanoseconds, each from the write on this thread to the
    /// sleeper running; the sleeper is pinned to `cpu` if given.
    static func wakeUps(_ count: Int, cpu: Int?) throws -> [Double] {
        let eventFD = eventfd(0, Int32(EFD_CLOEXEC))
        guard eventFD >= 0 else { throw SocketError(call: "eventfd", errno: errno) }
        let epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else {
            close(eventFD)
            throw SocketError(call: "epoll_create1", errno: errno)
        }
        defer {
            close(epollFD)
            close(eventFD)
        }
        var interest = epoll_event()
        interest.events = EPOLLIN.rawValue
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, eventFD, &interest) == 0 else {
            throw SocketError(call: "epoll_ctl", errno: errno)
        }
        let sent = Atomic<UInt64>(0)
        let latencies = Mutex<[Double]>([])
        let woke = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let sleeper = Thread {
            if let cpu { _ = bench_pin_current_thread(Int32(cpu)) }
            var event = epoll_event()
            var value: UInt64 = 0
            for _ in 0..<count {
                while epoll_wait(epollFD, &event, 1, -1) < 0 && errno == EINTR {}
                let elapsed = Double(monotonicNanoseconds() - sent.load(ordering: .acquiring))
                _ = read(eventFD, &value, 8)
                latencies.withLock { $0.append(elapsed) }
                woke.signal()
            }
            finished.signal()
        }
        sleeper.start()
        var one: UInt64 = 1
        for _ in 0..<count {
            usleep(100)
            sent.store(monotonicNanoseconds(), ordering: .releasing)
            _ = write(eventFD, &one, 8)
            woke.wait()
        }
        finished.wait()
        return latencies.withLock { $0 }
    }
}
