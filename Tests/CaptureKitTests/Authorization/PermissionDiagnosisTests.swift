import Testing

@testable import ArcaptureCore
@testable import CaptureKit

@Suite("Permission diagnosis")
struct PermissionDiagnosisTests {
    func diagnosis(
        errno: Errno = .permissionDenied, group: UInt32 = 44, groupName: String? = "video", mode: UInt32 = 0o660,
        inGroupNow: Bool = false, listed: Bool = false
    ) -> PermissionDiagnosis {
        PermissionDiagnosis(
            path: "/dev/video0", errno: errno, ownerID: 0, ownerName: "root", groupID: group, groupName: groupName,
            mode: mode, userID: 1000, userName: "alice", processHasGroup: inGroupNow, userListedInGroup: listed)
    }

    @Test("not in the group: join it and log in again")
    func notInGroup() {
        let value = diagnosis()
        #expect(value.nodeDescription == "crw-rw---- root:video")
        #expect(value.summary == "user 'alice' is not in group 'video'")
        #expect(
            value.fix == "add the user to the group with 'sudo usermod -aG video alice', then log out and log in again")
    }

    @Test("added to the group after logging in: log in again")
    func loginPredatesGroup() {
        let value = diagnosis(listed: true)
        #expect(value.summary == "user 'alice' was added to group 'video' after this login session started")
        #expect(value.fix.contains("log out and log in again"))
        #expect(value.fix.contains("newgrp video"))
    }

    @Test("a root-only node needs a udev rule")
    func noGroupAccess() {
        for value in [diagnosis(group: 0, groupName: "root"), diagnosis(mode: 0o600)] {
            #expect(value.summary.contains("no udev rule gave it to a group"))
            #expect(value.fix.contains("SUBSYSTEM==\"video4linux\", GROUP=\"video\", MODE=\"0660\""))
            #expect(value.fix.contains("udevadm trigger"))
        }
    }

    @Test("EPERM, or a refusal despite the group, is a security policy")
    func securityPolicy() {
        for value in [diagnosis(errno: .notPermitted), diagnosis(inGroupNow: true)] {
            #expect(value.summary.contains("security policy"))
            #expect(value.fix.contains("docker run --device /dev/video0"))
        }
    }

    @Test("no advice ever opens the camera to everyone or runs as root")
    func neverUnsafeAdvice() {
        let all = [
            diagnosis(), diagnosis(listed: true), diagnosis(group: 0, groupName: "root"),
            diagnosis(errno: .notPermitted),
            diagnosis(inGroupNow: true),
        ]
        for value in all {
            let text = CaptureError.permissionDenied(value).description
            #expect(!text.contains("chmod"))
            #expect(!text.contains("666"))
            #expect(!text.contains("sudo arcapture"))
            #expect(!text.contains("as root"))
        }
    }

    @Test("the one-line error reads as the conventions say")
    func errorLine() {
        #expect(
            CaptureError.permissionDenied(diagnosis()).description
                == "cannot open '/dev/video0': permission denied, crw-rw---- root:video: user 'alice' is not in group 'video' "
                + "(add the user to the group with 'sudo usermod -aG video alice', then log out and log in again)")
    }
}
