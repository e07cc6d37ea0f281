import ArcaptureCore
import Foundation

extension CameraModel {
    /// Reads a camera calibration: a ROS `camera_info` YAML file (from `camera_calibration`) or an
    /// OpenCV calibration file, and scales it to `frameSize` when given.
    ///
    /// Keys may come in any order and unknown keys are ignored. The rectification and projection
    /// matrices describe the rectified image and are not used. The camera matrix must have zero skew;
    /// four `plumb_bob` coefficients mean k3 = 0; without a `distortion_model` key, 4 or 5
    /// coefficients are `plumb_bob` and 8 are `rational_polynomial`, as OpenCV writes them. Fisheye
    /// models are refused.
    ///
    /// - Parameters:
    ///   - path: the file.
    ///   - frameSize: the size of the frames it will describe, if different from the calibration's.
    /// - Throws: `InputFileError` naming the file, line and problem, or the scaling problem.
    public init(cameraInfoFile path: String, frameSize: (width: Int, height: Int)? = nil) throws(InputFileError) {
        let data = try InputFile.read(path)
        let root = try YAMLLoader.load(String(decoding: data, as: UTF8.self), file: path)
        let model = try Self.parseCameraInfo(root, file: path)
        guard let frameSize else {
            self = model
            return
        }
        do {
            self = try model.scaled(toWidth: frameSize.width, height: frameSize.height)
        } catch {
            throw .malformed(file: path, location: nil, problem: error.description)
        }
    }

    static func parseCameraInfo(_ root: YAMLNode, file: String) throws(InputFileError) -> CameraModel {
        func fail(_ node: YAMLNode?, _ problem: String) -> InputFileError {
            .malformed(file: file, location: node.map { "line \($0.line)" }, problem: problem)
        }
        guard case .mapping = root else {
            throw fail(root, "expected a mapping of calibration keys, found \(root.summary)")
        }
        func integer(_ key: String) throws(InputFileError) -> Int {
            guard let node = root[key] else { throw fail(root, "'\(key)' is missing") }
            guard let text = node.text, let value = Int(text), value > 0 else {
                throw fail(node, "'\(key)' must be a positive whole number, found \(node.summary)")
            }
            return value
        }
        func numbers(_ key: String) throws(InputFileError) -> (values: [Double], node: YAMLNode)? {
            guard let container = root[key] else { return nil }
            // ROS and OpenCV both nest the values under `data`.
            guard let data = container["data"], case .sequence(let items, _) = data else {
                throw fail(container, "'\(key)' must have a 'data' list")
            }
            var values: [Double] = []
            for item in items {
                guard let text = item.text, let value = Double(text), value.isFinite else {
                    throw fail(item, "'\(key).data' must hold numbers, found \(item.summary)")
                }
                values.append(value)
            }
            return (values, data)
        }

        let width = try integer("image_width")
        let height = try integer("image_height")
        guard let (matrix, matrixNode) = try numbers("camera_matrix") else {
            throw fail(root, "'camera_matrix' is missing")
        }
        guard matrix.count == 9 else {
            throw fail(matrixNode, "'camera_matrix.data' must hold 9 numbers (3x3, row by row), found \(matrix.count)")
        }
        guard matrix[1] == 0 else {
            throw fail(matrixNode, "the camera matrix has skew \(matrix[1]); only zero skew is supported")
        }
        guard matrix[3] == 0, matrix[6] == 0, matrix[7] == 0, matrix[8] == 1, matrix[0] > 0, matrix[4] > 0 else {
            throw fail(matrixNode, "'camera_matrix.data' must read [fx, 0, cx, 0, fy, cy, 0, 0, 1] with fx, fy > 0")
        }
        let intrinsics = CameraIntrinsics(fx: matrix[0], fy: matrix[4], cx: matrix[2], cy: matrix[5])

        let modelNode = root["distortion_model"]
        let coefficients = try numbers("distortion_coefficients")
        let values = coefficients?.values ?? []
        let modelName = modelNode?.text ?? (values.count == 8 ? "rational_polynomial" : "plumb_bob")
        let distortion: LensDistortion
        switch modelName {
        case "plumb_bob":
            switch values.count {
            case 0 where coefficients == nil: distortion = .none
            case 4: distortion = .plumbBob(k1: values[0], k2: values[1], p1: values[2], p2: values[3], k3: 0)
            case 5: distortion = .plumbBob(k1: values[0], k2: values[1], p1: values[2], p2: values[3], k3: values[4])
            default:
                throw fail(coefficients?.node, "plumb_bob takes 4 or 5 distortion coefficients, found \(values.count)")
            }
        case "rational_polynomial":
            guard values.count == 8 else {
                throw fail(
                    coefficients?.node ?? modelNode,
                    "rational_polynomial takes 8 distortion coefficients, found \(values.count)")
            }
            distortion = .rationalPolynomial(
                k1: values[0], k2: values[1], p1: values[2], p2: values[3], k3: values[4], k4: values[5], k5: values[6],
                k6: values[7])
        case "equidistant", "fisheye", "kannala_brandt":
            throw fail(
                modelNode,
                "fisheye distortion ('\(modelName)') is not supported: calibrate with plumb_bob or rational_polynomial")
        default:
            throw fail(modelNode, "unknown distortion_model '\(modelName)' (expected plumb_bob or rational_polynomial)")
        }
        let isIdeal = values.allSatisfy { $0 == 0 }
        return CameraModel(
            width: width, height: height, intrinsics: intrinsics, distortion: isIdeal ? .none : distortion,
            name: root["camera_name"]?.text)
    }
}
