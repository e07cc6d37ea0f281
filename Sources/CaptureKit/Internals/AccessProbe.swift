import ArcaptureCore
import Glibc

/// Works out a node's ``Authorization`` by trying what capture will do: `stat`, open read-write,
/// `VIDIOC_QUERYCAP`, and `VIDIOC_REQBUFS` with a count of 0.
///
/// The last step is how busy is detected without disturbing anyone: on a queue another file handle
/// owns, `VIDIOC_REQBUFS` fails with `EBUSY` (videobuf2 and uvcvideo both check ownership first); on a
/// free queue a count of 0 allocates nothing and leaves the queue free. The probe opens the node only
/// for these calls and closes it before returning.
@_spi(Testing) public struct AccessProbe: Sendable {
    /// Opens a node; the real kernel device in production, a scripted device in unit tests.
    var open: @Sendable (String) throws(SystemCallError) -> any VideoDeviceDriver

    /// A probe that opens real kernel devices.
    init() {
        open = { path throws(SystemCallError) in try KernelVideoDevice.open(path, usesLibV4L2: false) }
    }

    /// A probe that opens nodes with `open` (a scripted device in unit tests).
    @_spi(Testing) public init(open: @escaping @Sendable (String) throws(SystemCallError) -> any VideoDeviceDriver) {
        self.open = open
    }

    /// Examines `path`.
    func examine(_ path: String) -> Authorization {
        let info: stat
        switch FileSystem.status(of: path) {
        case .success(let status):
            info = status
        case .failure(let error) where error == .noSuchFile || error.rawValue == ENOTDIR:
            return Authorization(path: path, status: .notDetermined, problem: .deviceNotFound(path: path))
        case .failure(let error):
            return Authorization(
                path: path, status: .restricted,
                problem: .notAVideoDevice(path: path, detail: "it cannot be examined (\(error))"))
        }
        guard FileSystem.isCharacterDevice(info) else {
            return Authorization(
                path: path, status: .restricted,
                problem: .notAVideoDevice(path: path, detail: "it is not a character device"))
        }
        let driver: any VideoDeviceDriver
        do {
            driver = try open(path)
        } catch {
            return classifyOpenFailure(error, path: path, node: info)
        }
        defer { driver.close() }
        return classifyOpenNode(driver, path: path)
    }

    /// The authorization for a node that could not be opened.
    func classifyOpenFailure(_ error: SystemCallError, path: String, node info: stat) -> Authorization {
        switch error.errno {
        case .permissionDenied, .notPermitted:
            let diagnosis = PermissionDiagnosis.diagnose(path: path, errno: error.errno, node: info)
            return Authorization(path: path, status: .denied, problem: .permissionDenied(diagnosis))
        case .noSuchFile:
            return Authorization(path: path, status: .notDetermined, problem: .deviceNotFound(path: path))
        case .noSuchDevice, .noSuchDeviceOrAddress:
            return Authorization(
                path: path, status: .notDetermined, problem: .deviceGone(path: path, errno: error.errno))
        case .busy:
            return Authorization(path: path, status: .restricted, problem: .busy(path: path))
        default:
            return Authorization(path: path, status: .restricted, problem: .streamingFailed(path: path, error))
        }
    }

    private func classifyOpenNode(_ driver: any VideoDeviceDriver, path: String) -> Authorization {
        let capability: V4L2Capability
        do {
            capability = try driver.queryCapability()
        } catch {
            if error.errno == .noSuchDevice {
                return Authorization(
                    path: path, status: .notDetermined, problem: .deviceGone(path: path, errno: error.errno))
            }
            return Authorization(
                path: path, status: .restricted,
                problem: .notAVideoDevice(
                    path: path, detail: "it does not answer VIDIOC_QUERYCAP (\(error.errno.name))"))
        }
        if let problem = capability.captureProblem(path: path) {
            return Authorization(path: path, status: .restricted, problem: problem)
        }
        do {
            _ = try driver.requestBuffers(0, .capture)
        } catch {
            switch error.errno {
            case .busy:
                return Authorization(path: path, status: .restricted, problem: .busy(path: path))
            case .noSuchDevice:
                return Authorization(
                    path: path, status: .notDetermined, problem: .deviceGone(path: path, errno: error.errno))
            default:
                return Authorization(path: path, status: .restricted, problem: .streamingUnsupported(path: path))
            }
        }
        return Authorization(path: path, status: .authorized, problem: nil)
    }
}
