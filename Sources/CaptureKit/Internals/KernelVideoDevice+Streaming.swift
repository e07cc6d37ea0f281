import ArcaptureCore
internal import CV4L2
import Glibc

extension KernelVideoDevice {
    func requestBuffers(_ count: UInt32, _ queue: BufferQueue) throws(SystemCallError) -> UInt32 {
        var request = v4l2_requestbuffers()
        request.count = count
        request.type = queue.rawType
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try ioctl(.requestBuffers, &request).get()
        return request.count
    }

    func mapBuffer(_ index: UInt32, _ queue: BufferQueue) throws(SystemCallError) -> UnsafeMutableRawBufferPointer {
        var buffer = v4l2_buffer()
        buffer.index = index
        buffer.type = queue.rawType
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        try ioctl(.queryBuffer, &buffer).get()
        let length = Int(buffer.length)
        let offset = Int64(buffer.m.offset)
        let descriptor = readinessDescriptor
        let libv4l2: Int32 = usesLibV4L2 ? 1 : 0
        guard let start = cv4l2_mmap(descriptor, length, offset, libv4l2) else {
            throw SystemCallError(call: "mmap", errno: .current)
        }
        return UnsafeMutableRawBufferPointer(start: start, count: length)
    }

    func unmapBuffer(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let start = buffer.baseAddress else { return }
        let libv4l2: Int32 = usesLibV4L2 ? 1 : 0
        // munmap fails only for a range that was never mapped, which would be a bug here.
        let result = SystemCall.retryingInterrupts("munmap") { cv4l2_munmap(start, buffer.count, libv4l2) }
        assert((try? result.get()) != nil, "munmap of a buffer CaptureKit did not map")
    }

    func queueBuffer(_ index: UInt32, _ queue: BufferQueue) throws(SystemCallError) {
        var buffer = v4l2_buffer()
        buffer.index = index
        buffer.type = queue.rawType
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        try ioctl(.queueBuffer, &buffer).get()
    }

    func dequeueBuffer(_ queue: BufferQueue) throws(SystemCallError) -> DequeuedBuffer? {
        // libv4l2 prints "error dequeuing buf" on stderr for every EAGAIN, so on that path ask poll(2)
        // first; an error condition (POLLERR) still goes on to VIDIOC_DQBUF, which reports it.
        if usesLibV4L2 && !isReadyOrFailed() { return nil }
        var buffer = v4l2_buffer()
        buffer.type = queue.rawType
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        switch ioctl(.dequeueBuffer, &buffer) {
        case .success:
            let nanoseconds = Int64(buffer.timestamp.tv_sec) * 1_000_000_000 + Int64(buffer.timestamp.tv_usec) * 1000
            return DequeuedBuffer(
                index: buffer.index, bytesUsed: buffer.bytesused, flags: BufferFlags(rawValue: buffer.flags),
                field: buffer.field, sequence: buffer.sequence, timestampNanoseconds: nanoseconds)
        case .failure(let error) where error.errno == .wouldBlock:
            return nil
        case .failure(let error):
            throw error
        }
    }

    /// Whether a buffer can be dequeued now, or the node reports an error, without waiting.
    private func isReadyOrFailed() -> Bool {
        var descriptor = pollfd(fd: readinessDescriptor, events: Int16(POLLIN), revents: 0)
        let ready = SystemCall.retryingInterrupts("poll") { poll(&descriptor, 1, 0) }
        guard case .success(let count) = ready else { return true }
        return count > 0
    }

    func startStreaming(_ queue: BufferQueue) throws(SystemCallError) {
        var type = Int32(bitPattern: queue.rawType)
        try ioctl(.streamOn, &type).get()
    }

    func stopStreaming(_ queue: BufferQueue) throws(SystemCallError) {
        var type = Int32(bitPattern: queue.rawType)
        try ioctl(.streamOff, &type).get()
    }
}
