import ARCompositor
import Foundation
@_spi(Testing) import ScriptedCamera
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import CaptureKit
@_spi(Testing) @testable import GeoAR
@testable import JPEGKit
@testable import Positioning

/// The seed's rules for the view, each with a test that can fail, on the scripted fake camera.
@Suite("GeoAR view on the scripted camera", .serialized, .timeLimit(.minutes(5)))
struct GeoARViewTests {
    /// Presents a view with a recorder attached and waits until it is loaded.
    private func presented(
        _ fixtures: ViewFixtures, session: ARSession = ViewFixtures.session(), selectsCenter: Bool = false,
        recorder: ViewRecorder = ViewRecorder(), orientation: LivePoseTracker.OrientationChoice? = nil
    ) throws -> (GeoARView, ViewRecorder) {
        var configuration = fixtures.configuration(queue: recorder.queue, selectsCenter: selectsCenter)
        if let orientation { configuration.pose = LivePoseTracker.Options(orientation: orientation) }
        let view = GeoARView(frame: .full, session: session, configuration: configuration)
        recorder.attach(to: view)
        view.present()
        try #require(recorder.wait { $0.phases.last == .waitingForLocationSource }, "\(recorder.snapshot.phases)")
        return (view, recorder)
    }

    @Test("capture starts only when a location source is assigned, and stops (the camera closes) when it is removed")
    func captureFollowsTheLocationSource() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let (view, recorder) = try presented(fixtures)
        // Loaded and waiting, the camera is not open; that it never was before the source is the
        // count at the end (a camera opened before would be a second device).
        #expect(fixtures.factory.devices.isEmpty, "no camera before a location source")
        view.locationManager.locationSource = FixedLocationSource(try ViewFixtures.position)
        #expect(recorder.wait { $0.phases.last == .running }, "\(recorder.snapshot.phases)")
        let device = try #require(fixtures.factory.latest)
        #expect(device.isStreaming)
        view.locationManager.locationSource = nil
        #expect(recorder.wait { $0.phases.last == .waitingForLocationSource })
        #expect(waitUntil { device.isClosed }, "removing the source closes the camera")
        await view.stop()
        #expect(recorder.wait { $0.phases.last == .stopped })
        #expect(
            recorder.snapshot.phases == [
                .loadingMapData, .waitingForCameraAuthorization, .waitingForLocationSource, .startingCamera, .running,
                .waitingForLocationSource, .stopped,
            ])
        #expect(recorder.snapshot.loaded == 1, "onLoaded exactly once")
        #expect(recorder.snapshot.offQueue == 0, "every handler ran on the handler queue")
        #expect(fixtures.factory.devices.count == 1, "the camera was opened once: after the source came")
    }

    @Test("a stopped view's camera run is freed: its session and capture do not keep each other alive")
    func cameraRunIsFreed() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let recorder = ViewRecorder()
        var configuration = fixtures.configuration(queue: recorder.queue)
        // Weak references to the sessions the view makes: once the view has stopped, nothing of
        // the run may hold them (before the fix, the capture held its session and the session's
        // frame handler and observers held the capture, so both stayed with all their buffers).
        let made = Locked<[WeakSession]>([])
        let factory = fixtures.factory
        configuration.cameraHooks.makeSession = {
            let session = factory.makeSession()
            made.withLock { $0.append(WeakSession(session: session)) }
            return session
        }
        let view = GeoARView(frame: .full, session: ViewFixtures.session(), configuration: configuration)
        recorder.attach(to: view)
        view.present()
        view.locationManager.locationSource = FixedLocationSource(try ViewFixtures.position)
        #expect(recorder.wait { $0.phases.last == .running }, "\(recorder.snapshot.phases)")
        #expect(fixtures.emit(sequence: 0))
        #expect(waitUntil { fixtures.records().count == 1 }, "a frame went through the whole run")
        await view.stop()
        #expect(made.withLock { $0.count } == 1)
        #expect(waitUntil { made.withLock { $0.allSatisfy { $0.session == nil } } }, "the run's session is still alive")
    }

    @Test("a broken POI file fails loading: onFailed with the file, line and field, and the failed phase")
    func brokenMapData() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let file = fixtures.directory.appendingPathComponent("broken.geojson")
        try Data(
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"name": "x"}, "geometry": {"type": "Point", "coordinates": [24.9]}}
            ]}
            """.utf8
        ).write(to: file)
        let recorder = ViewRecorder()
        let view = GeoARView(
            frame: .full, session: ARSession(files: MapDataFiles(pointsOfInterest: file.path)),
            configuration: fixtures.configuration(queue: recorder.queue))
        recorder.attach(to: view)
        view.present()
        #expect(
            recorder.wait {
                !$0.failures.isEmpty && $0.phases.last.map { if case .failed = $0 { true } else { false } } == true
            })
        let failure = try #require(recorder.snapshot.failures.first)
        #expect(failure.description.contains(file.path), "\(failure)")
        #expect(failure.description.contains("coordinates"), "\(failure)")
        #expect(recorder.snapshot.loaded == 0)
        #expect(recorder.snapshot.phases.first == .loadingMapData)
        let summary = await view.ended()
        if case .failed = summary.ending {} else { Issue.record("ended \(summary.ending)") }
        #expect(fixtures.factory.devices.isEmpty)
    }

    @Test("a denied camera fails before the view loads, naming the problem")
    func deniedCamera() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let recorder = ViewRecorder()
        let view = GeoARView(
            frame: .full, session: ViewFixtures.session(),
            configuration: fixtures.configuration(queue: recorder.queue, authorized: false))
        recorder.attach(to: view)
        view.present()
        #expect(recorder.wait { !$0.failures.isEmpty })
        #expect(recorder.snapshot.failures.first?.description.contains("denied by the test") == true)
        #expect(recorder.snapshot.phases.prefix(2) == [.loadingMapData, .waitingForCameraAuthorization])
        #expect(recorder.snapshot.loaded == 0)
        _ = await view.ended()
    }

    @Test("frames are annotated at their time from the fixed position; the sidecar lists what was drawn")
    func annotatesFrames() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let (view, recorder) = try presented(fixtures)
        view.locationManager.locationSource = FixedLocationSource(try ViewFixtures.position)
        #expect(recorder.wait { $0.phases.last == .running })
        for sequence in 0..<3 { #expect(fixtures.emit(sequence: UInt32(sequence))) }
        #expect(waitUntil { fixtures.records().count == 3 })
        await view.stop()
        let records = fixtures.records()
        #expect(records.allSatisfy { ($0["pois"] as? [[String: Any]])?.count == 2 }, "\(records)")
        let pose = try #require(records.first?["pose"] as? [String: Any])
        #expect(abs((pose["lat"] as? Double ?? 0) - 60.17) < 1e-9)
        let summary = await view.ended()
        #expect(summary.live?.annotated == 3)
        #expect(summary.live?.withoutPose == 0)
        #expect(recorder.snapshot.coordinates.first?.latitude == 60.17)
    }

    @Test("observers compose (a handler added twice runs twice); bindings are single (the last one wins)")
    func observersComposeBindingsAreSingle() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let recorder = ViewRecorder()
        let first = GeoARBinding<Set<String>>([])
        let second = GeoARBinding<Set<String>>([])
        let builder = GeoAR(
            session: ViewFixtures.session(), configuration: fixtures.configuration(queue: recorder.queue)
        )
        .selectedPOIs(first)
        .selectedPOIs(second)
        let view = recorder.attach(to: recorder.attach(to: builder)).present()  // every handler twice
        #expect(recorder.wait { $0.loaded == 2 }, "both onLoaded handlers ran: \(recorder.snapshot.loaded)")
        view.locationManager.locationSource = FixedLocationSource(try ViewFixtures.position)
        #expect(recorder.wait { $0.phases.filter { $0 == .running }.count == 2 })
        view.select(["b"])
        #expect(fixtures.emit(sequence: 0))
        #expect(waitUntil { fixtures.records().count == 1 })
        #expect(second.value == ["b"])
        #expect(first.value.isEmpty, "the first binding was replaced")
        await view.stop()
    }

    @Test("selection from code is highlighted on the next frame; select-center writes the binding")
    func twoWaySelection() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let recorder = ViewRecorder()
        let selection = GeoARBinding<Set<String>>([])
        let changes = StreamCollector<Set<String>>()
        selection.onChange(on: recorder.queue) { changes.append($0) }
        let view = recorder.attach(
            to: GeoAR(session: ViewFixtures.session(), configuration: fixtures.configuration(queue: recorder.queue))
                .selectedPOIs(selection)
        ).present()
        #expect(recorder.wait { $0.loaded == 1 })
        view.locationManager.locationSource = FixedLocationSource(try ViewFixtures.position)
        #expect(recorder.wait { $0.phases.last == .running })
        #expect(fixtures.emit(sequence: 0))
        #expect(waitUntil { fixtures.records().count == 1 })
        selection.value = ["a"]  // from code
        #expect(fixtures.emit(sequence: 1))
        #expect(waitUntil { fixtures.records().count == 2 })
        await view.stop()
        // The same grey frame, the same pose: only the selection differs, so the pixels that differ
        // are the highlighted marker's, around where the sidecar says "a" was drawn.
        let plain = try decodedLuma(fixtures.directory.appendingPathComponent("frame-001.jpg"))
        let selected = try decodedLuma(fixtures.directory.appendingPathComponent("frame-002.jpg"))
        let records = fixtures.records()
        let markerA = try #require((records[1]["pois"] as? [[String: Any]])?.first { $0["id"] as? String == "a" })
        let (u, v) = (markerA["u"] as? Double ?? -1, markerA["v"] as? Double ?? -1)
        var near = 0
        var far = 0
        for y in 0..<480 {
            for x in 0..<640 where abs(Int(plain[y * 640 + x]) - Int(selected[y * 640 + x])) > 12 {
                if abs(Double(x) - u) < 120 && abs(Double(y) - v) < 120 { near += 1 } else { far += 1 }
            }
        }
        #expect(near > 50, "the selected marker looks different (\(near) pixels changed near it)")
        #expect(far < near / 4, "and little else does (\(far) elsewhere)")
        #expect(changes.values.isEmpty, "a value set from code is not echoed back")

        // The view's own selection: the POI nearest the centre, written back to the binding.
        let fixtures2 = try ViewFixtures()
        defer { fixtures2.remove() }
        let recorder2 = ViewRecorder()
        let centre = GeoARBinding<Set<String>>([])
        let told = StreamCollector<Set<String>>()
        let toldToo = StreamCollector<Set<String>>()
        centre.onChange(on: recorder2.queue) { told.append($0) }
        centre.onChange(on: recorder2.queue) { toldToo.append($0) }  // handlers compose
        let view2 = recorder2.attach(
            to: GeoAR(
                session: ViewFixtures.session(),
                configuration: fixtures2.configuration(queue: recorder2.queue, selectsCenter: true)
            )
            .selectedPOIs(centre)
        ).present()
        #expect(recorder2.wait { $0.loaded == 1 })
        view2.locationManager.locationSource = FixedLocationSource(try ViewFixtures.position)
        #expect(recorder2.wait { $0.phases.last == .running })
        #expect(fixtures2.emit(sequence: 0))
        #expect(waitUntil { told.values == [["a"]] && toldToo.values == [["a"]] }, "\(told.values) \(toldToo.values)")
        #expect(centre.value == ["a"])
        #expect(view2.session.selectedPOIIDs == ["a"])
        await view2.stop()
    }

    @Test(
        "a second AR view on one session takes the slot: the first keeps drawing, stops receiving updates, and the error names the fix"
    )
    func rendererSlot() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let session = ViewFixtures.session()
        let (first, firstRecorder) = try presented(fixtures, session: session)
        first.locationManager.locationSource = FixedLocationSource(try ViewFixtures.position)
        #expect(firstRecorder.wait { $0.phases.last == .running })
        let errors = StreamCollector<String>()
        let fixtures2 = try ViewFixtures()
        defer { fixtures2.remove() }
        var configuration = fixtures2.configuration(queue: DispatchQueue(label: "second"))
        configuration.messages = PipelineMessages(
            note: { _ in }, warning: { _ in }, fileWritten: { _ in }, error: { errors.append($0) })
        let second = GeoARView(frame: .full, session: session, configuration: configuration)
        second.present()
        #expect(waitUntil { !errors.values.isEmpty })
        #expect(errors.values.first?.contains("give the second view its own session") == true)
        #expect(!first.receivesUpdates && second.receivesUpdates)
        let phasesBefore = firstRecorder.snapshot.phases.count
        // The first view still draws frames, but its handlers hear nothing more.
        #expect(fixtures.emit(sequence: 0))
        #expect(waitUntil { fixtures.records().count == 1 })
        await first.stop()
        // Whatever the first view's run told its handlers before it stopped has reached them once
        // its handler queue has run everything queued: a barrier, not a wait.
        firstRecorder.queue.sync {}
        #expect(firstRecorder.snapshot.phases.count == phasesBefore, "\(firstRecorder.snapshot.phases)")
        await second.stop()
    }

    @Test(
        "a displaced view writes nothing to the session (navigation, selection), and its stop leaves the newer view's"
    )
    func displacedViewWritesNothing() async throws {
        let fixtures = try ViewFixtures()
        let fixtures2 = try ViewFixtures()
        defer {
            fixtures.remove()
            fixtures2.remove()
        }
        let start = try ViewFixtures.position
        let session = try ViewFixtures.navigatingSession()
        let (first, firstRecorder) = try presented(fixtures, session: session, selectsCenter: true)
        first.locationManager.locationSource = FixedLocationSource(start)
        #expect(firstRecorder.wait { $0.phases.last == .running })
        var configuration = fixtures2.configuration(queue: DispatchQueue(label: "second"))
        configuration.messages = .silent
        let second = GeoARView(frame: .full, session: session, configuration: configuration)
        second.present()
        #expect(waitUntil { second.receivesUpdates && !first.receivesUpdates })
        second.locationManager.locationSource = FixedLocationSource(start)
        #expect(waitUntil { second.phase == .running })

        // The displaced view draws: it follows the route and picks the POI nearest its centre, for
        // itself alone.
        #expect(fixtures.emit(sequence: 0))
        #expect(waitUntil { fixtures.records().count == 1 })
        let instruction = fixtures.records().first?["instruction"] as? String
        #expect(instruction?.isEmpty == false, "the displaced view navigates: \(String(describing: instruction))")
        #expect(session.navigationInfo == nil, "its navigation is not the session's")
        #expect(session.selectedPOIIDs.isEmpty, "nor its centre's selection")
        // The newer view's frame: the session's navigation is its.
        #expect(fixtures2.emit(sequence: 0))
        #expect(waitUntil { fixtures2.records().count == 1 })
        #expect(session.navigationInfo != nil)
        await first.stop()
        #expect(session.navigationInfo != nil, "the displaced view's stop left the newer view's navigation")
        await second.stop()
        #expect(session.navigationInfo == nil, "the newer view's stop ends it")
    }

    @Test(
        "a camera with a footage output, footage with a live output, a recording of no file and a camera given twice fail at present with the fix, taking no slot"
    )
    func invalidConfigurations() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let valid = fixtures.configuration(queue: DispatchQueue(label: "invalid-configurations"))
        #expect(valid.problem == nil)
        let footageFile = fixtures.directory.appendingPathComponent("out.y4m").path
        var cameraToFootage = valid
        cameraToFootage.output = .footage(.y4mFile(footageFile), workers: 1)
        var footageToLive = valid
        footageToLive.source = .footage(
            path: fixtures.directory.appendingPathComponent("in.y4m").path, timing: FootageTiming())
        var emptyRecording = valid
        emptyRecording.source = .recording(paths: [], timing: FootageTiming())
        emptyRecording.output = .footage(.y4mFile(footageFile), workers: 1)
        var twice = valid
        twice.output = .live(
            .files(OutputTemplate(pattern: fixtures.directory.appendingPathComponent("f-%03n.jpg").path)),
            LiveCaptureSettings(devices: ["/dev/video-other"]), jsonLog: nil)
        // A valid view holds the session's slot, which a view that cannot run must not take.
        let session = ViewFixtures.session()
        let (holder, holderRecorder) = try presented(fixtures, session: session)
        #expect(holderRecorder.wait { $0.phases.last == .waitingForLocationSource })
        for (configuration, fix) in [
            (cameraToFootage, "a camera view writes live outputs: give it .live(…)"),
            (footageToLive, "footage is written to a footage output"),
            (emptyRecording, "a recording is one video file or more"),
            (
                twice,
                "the camera is given twice: '/dev/video-scripted' in the capture configuration and '/dev/video-other'"
            ),
        ] {
            #expect(
                configuration.problem?.description.contains(fix) == true, "\(String(describing: configuration.problem))"
            )
            let view = GeoARView(frame: .full, session: session, configuration: configuration)
            view.present()
            // A view wrongly accepted waits for a location source: bounded, then stopped, so that
            // it fails here rather than hanging.
            let settled = await eventually {
                if case .failed = view.phase { return true }
                return view.phase == .waitingForLocationSource
            }
            #expect(settled, "\(String(describing: view.phase))")
            // A Bool, not the view: a failed expectation reflects its operands, and the view holds
            // noncopyable state the testing library's reflection cannot copy (it crashed).
            let holderKeepsSlot = holder.receivesUpdates
            #expect(holderKeepsSlot, "the view that failed took no slot")
            await view.stop()
            let summary = await view.ended()
            guard case .failed(let error) = summary.ending else {
                Issue.record("\(fix): ended \(summary.ending), not failed")
                continue
            }
            #expect(error.description.contains(fix), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: footageFile))
        await holder.stop()
    }

    @Test("run() presents and returns when the view ends; cancelling its task stops the view and closes the camera")
    func runIsCancellable() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let recorder = ViewRecorder()
        let view = GeoARView(
            frame: .full, session: ViewFixtures.session(), configuration: fixtures.configuration(queue: recorder.queue))
        recorder.attach(to: view)
        let running = Task { await view.run() }
        #expect(recorder.wait { $0.phases.last == .waitingForLocationSource }, "run() presented the view")
        view.locationManager.locationSource = FixedLocationSource(try ViewFixtures.position)
        #expect(recorder.wait { $0.phases.last == .running })
        let device = try #require(fixtures.factory.latest)
        #expect(fixtures.emit(sequence: 0))
        #expect(waitUntil { fixtures.records().count == 1 })
        running.cancel()
        // Bounded, so that a run() that ignored its cancellation fails here rather than hanging.
        let stopped = await eventually { view.phase == .stopped }
        #expect(stopped, "cancelling run()'s task stopped the view: \(String(describing: view.phase))")
        if !stopped { await view.stop() }
        let summary = await running.value
        guard case .stopped = summary.ending else {
            Issue.record("ended \(summary.ending), not stopped")
            return
        }
        #expect(device.isClosed, "the camera closed")
        #expect(summary.live?.written == 1)
    }

    @Test(
        "phases, positions and a binding's changes as async sequences, taken from a view built and not yet presented, with no handler queue run; each ends in time"
    )
    func asyncSequences() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        // Handlers on a queue no one runs (a program that never services the main queue): the
        // sequences do not go through it.
        let idle = DispatchQueue(label: "never-run")
        idle.suspend()
        defer { idle.resume() }
        // Built, not presented (GeoAR.build()): the sequences are taken first and hear the first phase.
        let selection = GeoARBinding<Set<String>>([])
        let view = GeoAR(
            session: ViewFixtures.session(), configuration: fixtures.configuration(queue: idle, selectsCenter: true)
        )
        .selectedPOIs(selection)
        .build()
        // Built, not presented: a photo is refused at once (a presented view's waits for a frame).
        let refused = Locked(false)
        let early = Task {
            do throws(ViewPhotoError) {
                _ = try await view.capturePhoto()
            } catch {
                if case .notPresented = error { refused.withLock { $0 = true } }
            }
        }
        #expect(await eventually { refused.withLock { $0 } }, "built, not presented")
        early.cancel()
        let (phaseStream, coordinateStream, changeStream) = (view.phases, view.userCoordinates, selection.changes)
        let phases = Task {
            var seen: [LoadPhase] = []
            for await phase in phaseStream { seen.append(phase) }
            return seen
        }
        let coordinates = Task {
            var seen: [GeodeticCoordinate] = []
            for await coordinate in coordinateStream { seen.append(coordinate) }
            return seen
        }
        let firstChange = Task { () -> Set<String>? in
            for await value in changeStream { return value }
            return nil
        }
        view.present()
        #expect(waitUntil { view.phase == .waitingForLocationSource })
        view.locationManager.locationSource = FixedLocationSource(try ViewFixtures.position)
        #expect(waitUntil { view.phase == .running })
        #expect(fixtures.emit(sequence: 0))
        #expect(await firstChange.value == ["a"], "the view's own selection (the POI nearest the centre)")
        selection.value = ["b"]  // from code: not echoed, and the loop above has ended anyway
        await view.stop()
        let seen = await phases.value
        #expect(seen.first == .loadingMapData && seen.contains(.running) && seen.last == .stopped, "\(seen)")
        #expect(await coordinates.value.first?.latitude == 60.17)
        // A sequence asked for once the view has ended ends at once.
        var after = 0
        for await _ in view.phases { after += 1 }
        #expect(after == 0)
    }

    @Test("a camera not there yet is waited for off the view's queue: it opens when it comes, and stop() ends the wait")
    func absentCameraIsWaitedFor() async throws {
        for stopsWhileWaiting in [false, true] {
            let fixtures = try ViewFixtures()
            defer { fixtures.remove() }
            let recorder = ViewRecorder()
            let plugged = Locked(false)
            var configuration = fixtures.configuration(queue: recorder.queue)
            let factory = fixtures.factory
            configuration.cameraHooks = CameraHooks(
                makeSession: { factory.makeSession() },
                authorize: { path in
                    Authorization(
                        path: path, status: plugged.withLock { $0 } ? .authorized : .notDetermined, problem: nil)
                },
                requestAccess: { _, _ in
                    // As CaptureDevice.requestAccess does: until the node is there (no time limit
                    // here, so only plugging it in or a stop can end the view's wait).
                    while !plugged.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(5)) }
                    return true
                })
            configuration.authorizationTimeout = .seconds(3600)
            defer { plugged.withLock { $0 = true } }  // the hook's loop ends with the test
            let view = GeoARView(frame: .full, session: ViewFixtures.session(), configuration: configuration)
            recorder.attach(to: view)
            view.present()
            #expect(recorder.wait { $0.phases.last == .waitingForCameraAuthorization })
            if stopsWhileWaiting {
                // The view's queue is free while the camera is waited for: stop() returns now.
                await view.stop()
                let summary = await view.ended()
                guard case .stopped = summary.ending else {
                    Issue.record("ended \(summary.ending), not stopped")
                    continue
                }
                #expect(recorder.wait { $0.phases.last == .stopped })
                #expect(recorder.snapshot.loaded == 0, "never loaded")
            } else {
                plugged.withLock { $0 = true }
                #expect(recorder.wait { $0.phases.last == .waitingForLocationSource }, "\(recorder.snapshot.phases)")
                #expect(recorder.snapshot.loaded == 1)
                view.locationManager.locationSource = FixedLocationSource(try ViewFixtures.position)
                #expect(recorder.wait { $0.phases.last == .running })
                await view.stop()
            }
        }
    }

    @Test("the factory builds the program's subclass, which gets the builder's handlers and bindings and runs")
    func factoryBuildsSubclass() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let recorder = ViewRecorder()
        let selection = GeoARBinding<Set<String>>([])
        let built = recorder.attach(
            to: GeoAR(
                session: ViewFixtures.session(),
                configuration: fixtures.configuration(queue: recorder.queue, selectsCenter: true)
            ) { frame, session, configuration in
                SubclassedView(frame: frame, session: session, configuration: configuration)
            }
            .selectedPOIs(selection)
        ).present()
        let view = try #require(built as? SubclassedView, "the factory's view is the one presented")
        #expect(view.frameAtInit == view.frame)
        #expect(recorder.wait { $0.loaded == 1 }, "the builder's onLoaded reached the subclass")
        view.locationManager.locationSource = FixedLocationSource(try ViewFixtures.position)
        #expect(recorder.wait { $0.phases.last == .running })
        #expect(fixtures.emit(sequence: 0))
        #expect(waitUntil { selection.value == ["a"] }, "and its binding: the subclass selects as any view")
        await view.stop()
        #expect(recorder.wait { $0.phases.last == .stopped })
    }

    @Test("a session's map data files are read once, however many presents ask at the same time")
    func mapDataLoadedOnce() throws {
        let session = ARSession(
            files: MapDataFiles(pointsOfInterest: PackagePaths.sample("pois/helsinki_center_osm_pois.geojson")))
        let counts = Locked<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let count = (try? session.load())?.pointsOfInterest.count ?? -1
            counts.withLock { $0.append(count) }
        }
        let seen = counts.withLock { $0 }
        #expect(seen.count == 8 && Set(seen).count == 1 && seen[0] > 0, "\(seen)")
        #expect(session.loadCount == 1)
    }

    @Test(
        "navigation: a second binding replaces the first; nil when the route is removed while running, and on arrival")
    func navigationBindingRules() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let session = try ViewFixtures.navigatingSession()
        let (view, recorder) = try presented(fixtures, session: session)
        let (first, second) = (GeoARBinding<NavigationInfo?>(nil), GeoARBinding<NavigationInfo?>(nil))
        view.navigationInfo(first)
        view.navigationInfo(second)
        let start = try ViewFixtures.position
        view.locationManager.locationSource = FixedLocationSource(start)
        #expect(recorder.wait { $0.phases.last == .running })
        #expect(fixtures.emit(sequence: 0))
        #expect(waitUntil { second.value != nil }, "the last binding follows the route")
        #expect(first.value == nil, "the first was replaced")
        // The route removed while running: nil from the next frame, binding and session alike.
        session.setRoute(nil)
        #expect(fixtures.emit(sequence: 1))
        #expect(waitUntil { fixtures.records().count == 2 })
        #expect(waitUntil { second.value == nil && session.navigationInfo == nil })
        // A route that ends where the camera stands.
        session.setRoute(
            NavigationRoute(
                GeoRoute(
                    id: "here",
                    vertices: [
                        GeoRoute.Vertex(latitude: start.latitude - 0.003, longitude: start.longitude),
                        GeoRoute.Vertex(latitude: start.latitude, longitude: start.longitude),
                    ])))
        // On the way (167 m south of the end): navigating again.
        let south = try #require(
            GeodeticCoordinate(latitude: start.latitude - 0.0015, longitude: start.longitude, altitude: start.altitude))
        view.locationManager.locationSource = FixedLocationSource(south)
        #expect(waitUntil { view.latestFix?.coordinate.latitude == south.latitude })
        #expect(fixtures.emit(sequence: 2))
        #expect(waitUntil { fixtures.records().count == 3 })
        #expect(waitUntil { second.value != nil && session.navigationInfo != nil })
        // At the end: arrived, so nil.
        view.locationManager.locationSource = FixedLocationSource(start)
        #expect(waitUntil { view.latestFix?.coordinate.latitude == start.latitude })
        #expect(fixtures.emit(sequence: 3))
        #expect(waitUntil { fixtures.records().count == 4 })
        #expect(
            waitUntil { second.value == nil && session.navigationInfo == nil }, "\(String(describing: second.value))")
        await view.stop()
    }

    @Test("stopping a streaming view closes its camera")
    func stopClosesCamera() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let (view, recorder) = try presented(fixtures)
        view.locationManager.locationSource = FixedLocationSource(try ViewFixtures.position)
        #expect(recorder.wait { $0.phases.last == .running })
        let device = try #require(fixtures.factory.latest)
        #expect(fixtures.emit(sequence: 0))
        #expect(device.isStreaming)
        await view.stop()
        #expect(device.isClosed, "stop() returned with the camera closed")
    }

    @Test("the library lets the view go once its pipeline stops")
    func viewIsFreed() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        weak var weakView: GeoARView?
        do {
            let (view, recorder) = try presented(fixtures)
            weakView = view
            view.locationManager.locationSource = FixedLocationSource(try ViewFixtures.position)
            #expect(recorder.wait { $0.phases.last == .running })
            #expect(fixtures.emit(sequence: 0))
            await view.stop()
        }
        #expect(waitUntil { weakView == nil }, "nothing keeps the stopped view")
    }

    @Test("map data changed at run time is drawn from the next frame")
    func mapDataChanges() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let session = ViewFixtures.session()
        let (view, recorder) = try presented(fixtures, session: session)
        view.locationManager.locationSource = FixedLocationSource(try ViewFixtures.position)
        #expect(recorder.wait { $0.phases.last == .running })
        #expect(fixtures.emit(sequence: 0))
        #expect(waitUntil { fixtures.records().count == 1 })
        session.remove(ids: ["b"])
        #expect(fixtures.emit(sequence: 1))
        #expect(waitUntil { fixtures.records().count == 2 })
        session.add([PointOfInterest(id: "c", name: "Charlie", latitude: 60.1712, longitude: 24.9395, altitude: 20)])
        #expect(fixtures.emit(sequence: 2))
        #expect(waitUntil { fixtures.records().count == 3 })
        await view.stop()
        let ids = fixtures.records().map {
            (($0["pois"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }.sorted()
        }
        #expect(ids == [["a", "b"], ["a"], ["a", "c"]])
    }

    @Test("pose sources (an IMU) give the heading when they report one; the position stays the location source's")
    func poseSources() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let (view, recorder) = try presented(fixtures, orientation: .automatic)
        view.locationManager.poseSources = [OneOrientation(heading: 45)]
        view.locationManager.locationSource = FixedLocationSource(try ViewFixtures.position)
        #expect(recorder.wait { $0.phases.last == .running })
        #expect(fixtures.emit(sequence: 0))
        #expect(waitUntil { fixtures.records().count == 1 })
        await view.stop()
        let pose = try #require(fixtures.records().first?["pose"] as? [String: Any], "\(fixtures.records())")
        #expect(pose["heading_deg"] as? Double == 45)
        #expect(abs((pose["lat"] as? Double ?? 0) - 60.17) < 1e-9)
    }

    @Test("a track replayed live with a pose sidecar's headings (capture --pose-sidecar) poses frames by the sidecar")
    func replayedPoseSidecar() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        // Eastward along the fixed position's parallel (a course of 90°), a fix every half second
        // for a minute; the sidecar says the camera looked at 45° all along.
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let origin = try ViewFixtures.position
        let fixes = try (0..<120).map { index in
            LocationFix(
                time: start.addingTimeInterval(Double(index) / 2),
                coordinate: try #require(
                    GeodeticCoordinate(
                        latitude: origin.latitude, longitude: origin.longitude + Double(index) * 2e-5, altitude: 20)),
                mode: .threeD)
        }
        let rows = (0..<120).map { "\(1_700_000_000 + Double($0) / 2),45" }.joined(separator: "\n")
        let sidecar = try SidecarFile(data: Data(("time,heading\n" + rows).utf8), file: "pose.csv")
        let track = try RecordedTrack(file: "track.gpx", fixes: fixes).replacingOrientations(
            with: sidecar, file: "pose.csv")
        let (view, recorder) = try presented(fixtures, orientation: .automatic)
        view.locationManager.locationSource = RecordedLocationSource(track: track, pace: .realTime(speed: 1))
        #expect(recorder.wait { $0.phases.last == .running })
        var sequence: UInt32 = 0
        let posed = waitUntil {
            sequence += 1
            guard fixtures.emit(sequence: sequence) else { return false }
            return fixtures.records().contains { $0["pose"] is [String: Any] }
        }
        #expect(posed, "a frame was posed")
        await view.stop()
        let poses = fixtures.records().compactMap { $0["pose"] as? [String: Any] }
        #expect(!poses.isEmpty)
        #expect(
            poses.allSatisfy { $0["heading_deg"] as? Double == 45 }, "the sidecar's heading, not the course: \(poses)")
    }

    @Test("a live template that repeats a name stops the capture at that frame instead of replacing the first")
    func repeatedLiveName() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let recorder = ViewRecorder()
        var configuration = fixtures.configuration(queue: recorder.queue)
        // One name a year: the second frame would replace the first.
        let template = fixtures.directory.appendingPathComponent("still-%Y.jpg").path
        configuration.output = .live(
            .files(OutputTemplate(pattern: template)), LiveCaptureSettings(devices: ["/dev/video-scripted"]),
            jsonLog: nil)
        let view = GeoARView(frame: .full, session: ViewFixtures.session(), configuration: configuration)
        recorder.attach(to: view)
        view.present()
        #expect(recorder.wait { $0.phases.last == .waitingForLocationSource })
        view.locationManager.locationSource = FixedLocationSource(try ViewFixtures.position)
        #expect(recorder.wait { $0.phases.last == .running })
        #expect(fixtures.emit(sequence: 0))
        #expect(waitUntil { fixtures.records().count == 1 })
        #expect(fixtures.emit(sequence: 1))
        let failed = recorder.wait { if case .failed = $0.phases.last { true } else { false } }
        if !failed { await view.stop() }  // the capture would run on: end it, and fail below
        let summary = await view.ended()
        #expect(failed, "\(recorder.snapshot.phases)")
        guard case .outputFailed(let error) = summary.liveOutcome else {
            Issue.record("ended \(String(describing: summary.liveOutcome))")
            return
        }
        #expect(error.description.contains("an earlier frame of this run has that name"), "\(error)")
        let files = try FileManager.default.contentsOfDirectory(atPath: fixtures.directory.path)
        #expect(files.filter { $0.hasPrefix("still-") }.count == 1)
        #expect(summary.live?.written == 1)
    }

    /// The luma of a JPEG, decoded by libjpeg-turbo.
    private func decodedLuma(_ url: URL) throws -> [UInt8] {
        let image = try JPEGDecoder().decode(Array(try Data(contentsOf: url)))
        let plane = image.planes[0]
        return (0..<plane.height).flatMap { y in (0..<plane.width).map { x in plane[x, y] } }
    }
}

/// A pose source that reports one orientation when started, stamped now: an IMU, as far as the view
/// can tell.
final class OneOrientation: PoseSource, @unchecked Sendable {
    let heading: Double
    private let hub = StreamCollector<@Sendable (LocationEvent) -> Void>()

    init(heading: Double) { self.heading = heading }

    var name: String { "test orientation" }
    var status: LocationStatus { .fix(.threeD) }

    func addObserver(_ observer: @escaping @Sendable (LocationEvent) -> Void) -> LocationObservation {
        hub.append(observer)
        return LocationObservation(cancel: {})
    }

    func start() {
        let sample = OrientationSample(
            time: Date(), heading: heading, pitch: 0, roll: 0, headingAccuracy: 2, origin: .imu,
            receivedMonotonicNanoseconds: MonotonicClock.nanoseconds())
        for observer in hub.values { observer(.orientation(sample)) }
    }

    func stop() {}
}

/// A session the test must not keep alive itself.
struct WeakSession: @unchecked Sendable {
    weak var session: CaptureSession?
}
