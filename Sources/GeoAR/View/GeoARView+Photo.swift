extension GeoARView {
    /// The digital zoom's range: 1 (the whole picture) to 8 (the middle eighth of each side).
    /// Beyond 8 a webcam's picture is mostly interpolation.
    public static let zoomRange: ClosedRange<Double> = 1...8

    /// The AR view's digital zoom: 1 shows the camera's whole picture; 2 its middle half, scaled up
    /// to the frame, with the overlay drawn for the narrower view (labels stay where their places
    /// are). A map view draws its plan unzoomed.
    public var zoomFactor: Double { zoomSetting.withLock { $0 } }

    /// Sets the digital zoom from the next frame (pinch-to-zoom's role), clamped to
    /// ``zoomRange``; it is the view's, so it is kept across ``switchToNextCamera()``. A zoomed
    /// frame is decoded and encoded whole: a camera's MJPEG is not spliced while zoomed in.
    /// This method is thread-safe.
    ///
    /// - Returns: the factor set (clamped); a factor that is not a number changes nothing.
    @discardableResult
    public func zoom(to factor: Double) -> Double {
        zoomSetting.withLock { zoom in
            if !factor.isNaN { zoom = min(max(factor, Self.zoomRange.lowerBound), Self.zoomRange.upperBound) }
            return zoom
        }
    }

    /// Takes a still: the camera's next frame as the view draws it (zoomed, with the overlay, or
    /// the picture alone while there is no position, ``ViewPhoto/unannotatedReason`` saying why),
    /// whether or not the view's outputs write that frame (a time-lapse's interval does not delay
    /// it). A camera's MJPEG drawn on by splicing keeps the camera's own quality; an encoded frame
    /// uses `quality`. The camera opens once a location source is assigned, and a warm-up
    /// (``LiveCaptureSettings/warmUp``) draws no frame: until then the photo waits. This method is
    /// thread-safe; several requests at once get the same frame.
    ///
    /// - Parameter quality: 1–100, for a frame that must be encoded.
    /// - Throws: ``ViewPhotoError``: a footage view, a view not presented, one that ends first, a
    ///   cancelled task.
    public func capturePhoto(quality: Int = 90) async throws(ViewPhotoError) -> ViewPhoto {
        switch configuration.source {
        case .camera, .canvas: break
        case .footage, .recording: throw .notCameraView
        }
        guard (1...100).contains(quality) else { throw .invalidQuality(quality) }
        let id = photos.makeID()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                photos.add(id: id, quality: quality, continuation)
            }
        } onCancel: {
            photos.cancel(id: id)
        }
        return try result.get()
    }
}
