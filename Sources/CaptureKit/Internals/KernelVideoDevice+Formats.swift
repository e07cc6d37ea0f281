import ArcaptureCore
internal import CV4L2

extension KernelVideoDevice {
    func enumerateFormats(_ queue: BufferQueue) throws(SystemCallError) -> [PixelFormatDescription] {
        var formats: [PixelFormatDescription] = []
        for index in UInt32(0)..<KernelVideoDevice.enumerationLimit {
            var description = v4l2_fmtdesc()
            description.index = index
            description.type = queue.rawType
            switch ioctl(.enumerateFormat, &description) {
            case .success:
                formats.append(
                    PixelFormatDescription(
                        fourCC: FourCC(rawValue: description.pixelformat),
                        description: stringFromCArray(description.description),
                        isCompressed: description.flags & UInt32(V4L2_FMT_FLAG_COMPRESSED) != 0,
                        isEmulated: description.flags & UInt32(V4L2_FMT_FLAG_EMULATED) != 0
                    ))
            case .failure(let error) where error.errno == .invalidArgument:
                return formats  // the end of the list
            case .failure(let error):
                throw error
            }
        }
        return formats
    }

    func enumerateFrameSizes(_ fourCC: FourCC) throws(SystemCallError) -> [FrameSizeRange] {
        var sizes: [FrameSizeRange] = []
        for index in UInt32(0)..<KernelVideoDevice.enumerationLimit {
            var entry = v4l2_frmsizeenum()
            entry.index = index
            entry.pixel_format = fourCC.rawValue
            switch ioctl(.enumerateFrameSizes, &entry) {
            case .success:
                switch entry.type {
                case V4L2_FRMSIZE_TYPE_DISCRETE.rawValue:
                    sizes.append(.discrete(FrameSize(width: entry.discrete.width, height: entry.discrete.height)))
                case V4L2_FRMSIZE_TYPE_CONTINUOUS.rawValue:
                    let range = entry.stepwise
                    return [
                        .continuous(
                            minimum: FrameSize(width: range.min_width, height: range.min_height),
                            maximum: FrameSize(width: range.max_width, height: range.max_height))
                    ]
                default:  // stepwise: one entry describes the whole range
                    let range = entry.stepwise
                    return [
                        .stepwise(
                            minimum: FrameSize(width: range.min_width, height: range.min_height),
                            maximum: FrameSize(width: range.max_width, height: range.max_height),
                            step: FrameSize(width: range.step_width, height: range.step_height))
                    ]
                }
            case .failure(let error) where error.errno == .invalidArgument && index > 0:
                return sizes  // the end of the list
            case .failure(let error) where error.errno == .invalidArgument || error.errno == .notSupported:
                return []  // the driver does not enumerate sizes for this format (or at all)
            case .failure(let error):
                throw error
            }
        }
        return sizes
    }

    func enumerateFrameIntervals(_ fourCC: FourCC, _ size: FrameSize) throws(SystemCallError)
        -> FrameIntervalRange?
    {
        var intervals: [FrameInterval] = []
        for index in UInt32(0)..<KernelVideoDevice.enumerationLimit {
            var entry = v4l2_frmivalenum()
            entry.index = index
            entry.pixel_format = fourCC.rawValue
            entry.width = size.width
            entry.height = size.height
            switch ioctl(.enumerateFrameIntervals, &entry) {
            case .success:
                switch entry.type {
                case V4L2_FRMIVAL_TYPE_DISCRETE.rawValue:
                    intervals.append(FrameInterval(entry.discrete))
                case V4L2_FRMIVAL_TYPE_CONTINUOUS.rawValue:
                    return .continuous(
                        minimum: FrameInterval(entry.stepwise.min), maximum: FrameInterval(entry.stepwise.max))
                default:
                    return .stepwise(
                        minimum: FrameInterval(entry.stepwise.min), maximum: FrameInterval(entry.stepwise.max),
                        step: FrameInterval(entry.stepwise.step))
                }
            case .failure(let error) where error.errno == .invalidArgument && index > 0:
                return .discrete(intervals)
            case .failure(let error) where error.errno == .invalidArgument || error.errno == .notSupported:
                return nil
            case .failure(let error):
                throw error
            }
        }
        return .discrete(intervals)
    }

    func currentFormat(_ queue: BufferQueue) throws(SystemCallError) -> V4L2Format {
        var format = v4l2_format()
        format.type = queue.rawType
        try ioctl(.getFormat, &format).get()
        return V4L2Format(format, queue: queue)
    }

    func setFormat(_ requested: V4L2Format, _ queue: BufferQueue) throws(SystemCallError) -> V4L2Format {
        var format = v4l2_format()
        format.type = queue.rawType
        switch queue {
        case .capture:
            format.fmt.pix.width = requested.width
            format.fmt.pix.height = requested.height
            format.fmt.pix.pixelformat = requested.pixelFormat.rawValue
            format.fmt.pix.field = requested.field
        case .output:
            // A producer says how its frames are laid out: the driver sizes its buffers from it.
            format.fmt.pix.width = requested.width
            format.fmt.pix.height = requested.height
            format.fmt.pix.pixelformat = requested.pixelFormat.rawValue
            format.fmt.pix.field = requested.field
            format.fmt.pix.bytesperline = requested.bytesPerLine
            format.fmt.pix.sizeimage = requested.sizeImage
            format.fmt.pix.colorspace = requested.colorspace
            format.fmt.pix.quantization = requested.quantization
        case .captureMultiplanar:
            format.fmt.pix_mp.width = requested.width
            format.fmt.pix_mp.height = requested.height
            format.fmt.pix_mp.pixelformat = requested.pixelFormat.rawValue
            format.fmt.pix_mp.field = requested.field
        }
        try ioctl(.setFormat, &format).get()
        return V4L2Format(format, queue: queue)
    }

    func currentFrameInterval(_ queue: BufferQueue) throws(SystemCallError) -> FrameInterval? {
        var parameters = v4l2_streamparm()
        parameters.type = queue.rawType
        switch ioctl(.getParameters, &parameters) {
        case .success:
            guard parameters.parm.capture.capability & UInt32(V4L2_CAP_TIMEPERFRAME) != 0 else { return nil }
            return FrameInterval(parameters.parm.capture.timeperframe)
        case .failure(let error) where error.errno == .notSupported || error.errno == .invalidArgument:
            return nil
        case .failure(let error):
            throw error
        }
    }

    func setFrameInterval(_ interval: FrameInterval, _ queue: BufferQueue) throws(SystemCallError)
        -> FrameInterval?
    {
        var parameters = v4l2_streamparm()
        parameters.type = queue.rawType
        parameters.parm.capture.timeperframe = v4l2_fract(
            numerator: interval.numerator, denominator: interval.denominator)
        switch ioctl(.setParameters, &parameters) {
        case .success:
            guard parameters.parm.capture.capability & UInt32(V4L2_CAP_TIMEPERFRAME) != 0 else { return nil }
            return FrameInterval(parameters.parm.capture.timeperframe)
        case .failure(let error) where error.errno == .notSupported:
            return nil
        case .failure(let error):
            throw error
        }
    }
}

extension FrameInterval {
    fileprivate init(_ fraction: v4l2_fract) {
        self.init(numerator: fraction.numerator, denominator: fraction.denominator)
    }
}

extension V4L2Format {
    fileprivate init(_ format: v4l2_format, queue: BufferQueue) {
        switch queue {
        case .capture, .output:
            let pix = format.fmt.pix
            self.init(
                pixelFormat: FourCC(rawValue: pix.pixelformat), width: pix.width, height: pix.height,
                field: pix.field, bytesPerLine: pix.bytesperline, sizeImage: pix.sizeimage,
                colorspace: pix.colorspace, quantization: pix.quantization)
        case .captureMultiplanar:
            let pix = format.fmt.pix_mp
            let count = Int(min(pix.num_planes, UInt8(VIDEO_MAX_PLANES)))
            let planes = withUnsafeBytes(of: pix.plane_fmt) { raw in
                (0..<count).map { index in
                    let plane = raw.loadUnaligned(
                        fromByteOffset: index * MemoryLayout<v4l2_plane_pix_format>.stride,
                        as: v4l2_plane_pix_format.self)
                    return PlaneFormat(bytesPerLine: plane.bytesperline, sizeImage: plane.sizeimage)
                }
            }
            self.init(
                pixelFormat: FourCC(rawValue: pix.pixelformat), width: pix.width, height: pix.height,
                field: pix.field, bytesPerLine: planes.first?.bytesPerLine ?? 0,
                sizeImage: planes.first?.sizeImage ?? 0, colorspace: pix.colorspace,
                quantization: UInt32(pix.quantization))
            self.isMultiplanar = true
            self.planes = planes
        }
    }
}
