import CaptureKit
