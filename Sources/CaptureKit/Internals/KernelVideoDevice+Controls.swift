import ArcaptureCore
internal import CV4L2

extension KernelVideoDevice {
    func enumerateControls() throws(SystemCallError) -> [DeviceControl] {
        var controls: [DeviceControl] = []
        var nextID = UInt32(V4L2_CTRL_FLAG_NEXT_CTRL) | UInt32(V4L2_CTRL_FLAG_NEXT_COMPOUND)
        for _ in 0..<KernelVideoDevice.enumerationLimit {
            var query = v4l2_query_ext_ctrl()
            query.id = nextID
            switch ioctl(.queryExtendedControl, &query) {
            case .success:
                break
            case .failure(let error) where error.errno == .invalidArgument:
                return controls  // past the last control
            case .failure(let error) where error.errno == .notSupported && controls.isEmpty:
                return try enumerateLegacyControls()
            case .failure(let error):
                throw error
            }
            nextID = query.id | UInt32(V4L2_CTRL_FLAG_NEXT_CTRL) | UInt32(V4L2_CTRL_FLAG_NEXT_COMPOUND)
            let flags = ControlFlags(rawValue: query.flags)
            let type = ControlType(rawValue: query.type)
            if type == .controlClass || flags.contains(.disabled) { continue }
            controls.append(
                DeviceControl(
                    id: query.id, name: stringFromCArray(query.name), type: type,
                    minimum: query.minimum, maximum: query.maximum, step: query.step,
                    defaultValue: query.default_value,
                    value: currentValue(of: query.id, type: type, flags: flags),
                    flags: flags,
                    menuItems: menuItems(of: query.id, type: type, minimum: query.minimum, maximum: query.maximum)
                ))
        }
        return controls  // the enumeration limit: a broken driver
    }

    /// `VIDIOC_QUERYCTRL` for drivers older than `VIDIOC_QUERY_EXT_CTRL` (Linux 3.19).
    private func enumerateLegacyControls() throws(SystemCallError) -> [DeviceControl] {
        var controls: [DeviceControl] = []
        var nextID = UInt32(V4L2_CTRL_FLAG_NEXT_CTRL)
        for _ in 0..<KernelVideoDevice.enumerationLimit {
            var query = v4l2_queryctrl()
            query.id = nextID
            switch ioctl(.queryControl, &query) {
            case .success:
                break
            case .failure(let error) where error.errno == .invalidArgument || error.errno == .notSupported:
                return controls
            case .failure(let error):
                throw error
            }
            nextID = query.id | UInt32(V4L2_CTRL_FLAG_NEXT_CTRL)
            let flags = ControlFlags(rawValue: query.flags)
            let type = ControlType(rawValue: query.type)
            if type == .controlClass || flags.contains(.disabled) { continue }
            controls.append(
                DeviceControl(
                    id: query.id, name: stringFromCArray(query.name), type: type,
                    minimum: Int64(query.minimum), maximum: Int64(query.maximum),
                    step: UInt64(max(query.step, 0)), defaultValue: Int64(query.default_value),
                    value: currentValue(of: query.id, type: type, flags: flags), flags: flags,
                    menuItems: menuItems(
                        of: query.id, type: type, minimum: Int64(query.minimum), maximum: Int64(query.maximum))
                ))
        }
        return controls  // the enumeration limit: a broken driver
    }

    func setControl(_ id: UInt32, type: ControlType, value: Int64) throws(SystemCallError) -> Int64? {
        var control = v4l2_ext_control()
        control.id = id
        if type == .integer64 { control.value64 = value } else { control.value = Int32(truncatingIfNeeded: value) }
        let result: Result<Void, SystemCallError> = withUnsafeMutablePointer(to: &control) { pointer in
            var request = v4l2_ext_controls()
            request.which = UInt32(V4L2_CTRL_WHICH_CUR_VAL)
            request.count = 1
            request.controls = pointer
            return ioctl(.setExtendedControls, &request)
        }
        switch result {
        case .success:
            break
        case .failure(let error) where error.errno == .notSupported:
            var legacy = v4l2_control(id: id, value: Int32(truncatingIfNeeded: value))
            try ioctl(.setControl, &legacy).get()
        case .failure(let error):
            throw error
        }
        return type == .button ? nil : currentValue(of: id, type: type, flags: [])
    }

    /// Reads one control's value, or nil when it has none to read or the driver refuses (a control
    /// that cannot be read is still worth listing).
    private func currentValue(of id: UInt32, type: ControlType, flags: ControlFlags) -> Int64? {
        guard type.hasScalarValue, !flags.contains(.writeOnly) else { return nil }
        var control = v4l2_ext_control()
        control.id = id
        let result: Result<Void, SystemCallError> = withUnsafeMutablePointer(to: &control) { pointer in
            var request = v4l2_ext_controls()
            request.which = UInt32(V4L2_CTRL_WHICH_CUR_VAL)
            request.count = 1
            request.controls = pointer
            return ioctl(.getExtendedControls, &request)
        }
        switch result {
        case .success:
            switch type {
            case .integer64: return control.value64
            case .bitmask: return Int64(UInt32(bitPattern: control.value))  // a bit set, not a signed number
            default: return Int64(control.value)
            }
        case .failure(let error) where error.errno == .notSupported:
            var legacy = v4l2_control(id: id, value: 0)
            guard case .success = ioctl(.getControl, &legacy) else { return nil }
            return Int64(legacy.value)
        case .failure:
            return nil
        }
    }

    /// Lists a menu's items with `VIDIOC_QUERYMENU`; indices the driver skips return `EINVAL`.
    private func menuItems(of id: UInt32, type: ControlType, minimum: Int64, maximum: Int64) -> [MenuItem] {
        guard type == .menu || type == .integerMenu, minimum >= 0, maximum >= minimum,
            maximum - minimum < 1024
        else { return [] }
        var items: [MenuItem] = []
        for index in UInt32(minimum)...UInt32(maximum) {
            var query = v4l2_querymenu()
            query.id = id
            query.index = index
            guard case .success = ioctl(.queryMenu, &query) else { continue }
            if type == .menu {
                items.append(MenuItem(index: index, name: stringFromCArray(query.name)))
            } else {
                items.append(MenuItem(index: index, value: query.value))
            }
        }
        return items
    }
}
