// The process-wide allocation counters that CAllocationCounter's malloc interposer keeps.
import CAllocationCounter
import CBenchSupport
import Glibc

/// Reads the interposed allocator's counters.
enum AllocationCounter {
    /// Allocating calls since the process started.
    static var allocations: UInt64 { bench_allocation_count() }
    /// Frees of non-null pointers since the process started.
    static var frees: UInt64 { bench_free_count() }

    /// Proves the interposer is in the path: allocates `count` blocks through malloc and through
    /// Swift's own allocator and checks that the counter saw at least that many.
    static func selfTest(count: Int = 1000) -> Bool {
        let before = allocations
        for index in 0..<count {
            let pointer = malloc(16 + index % 7)
            bench_escape(pointer)
            free(pointer)
        }
        let afterMalloc = allocations
        for index in 0..<count {
            let box = Box(value: index)
            bench_escape(Unmanaged.passUnretained(box).toOpaque())
            withExtendedLifetime(box) {}
        }
        let afterSwift = allocations
        return afterMalloc - before >= UInt64(count) && afterSwift - afterMalloc >= UInt64(count)
    }

    /// A heap object, for the self-test.
    private final class Box {
        let value: Int
        init(value: Int) { self.value = value }
    }
}
