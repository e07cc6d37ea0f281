/// Reads a node's capability, formats (with sizes and intervals) and controls through a driver.
///
/// Enumeration errors on one format or size do not abort the listing: a driver that fails
/// `VIDIOC_ENUM_FRAMEINTERVALS` for one size is still worth describing.
struct DeviceInspector {
    let driver: any VideoDeviceDriver

    /// Fills `device` with what the driver reports.
    func describe(into device: inout CaptureDevice) {
        guard let capability = try? driver.queryCapability() else { return }
        device.capability = capability
        guard capability.isVideoCapture else { return }
        let queue: BufferQueue = capability.isMultiplanarOnly ? .captureMultiplanar : .capture
        device.formats = formats(queue)
        device.controls = (try? driver.enumerateControls()) ?? []
        device.currentFormat = try? driver.currentFormat(queue)
        device.currentFrameInterval = (try? driver.currentFrameInterval(queue)) ?? nil
    }

    /// Every format on `queue` with its sizes and the intervals at each size.
    func formats(_ queue: BufferQueue) -> [SupportedFormat] {
        let descriptions = (try? driver.enumerateFormats(queue)) ?? []
        return descriptions.map { description in
            let sizes = (try? driver.enumerateFrameSizes(description.fourCC)) ?? []
            return SupportedFormat(
                pixelFormat: description,
                frameSizes: sizes.map { range in
                    let intervals = (try? driver.enumerateFrameIntervals(description.fourCC, range.largest)) ?? nil
                    return SupportedFrameSize(sizes: range, frameIntervals: intervals)
                })
        }
    }
}
