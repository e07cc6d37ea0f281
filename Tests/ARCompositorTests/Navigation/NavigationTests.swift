import ARCompositor
import Foundation
import TestSupport
import Testing

@testable import Positioning

@Suite("Navigation along a route")
struct NavigationTests {
    let expected: ExpectedNavigation

    init() throws { expected = try ExpectedNavigation.load() }

    private static func route(_ vertices: [[Double]], id: String = "route") throws -> NavigationRoute {
        try #require(
            NavigationRoute(GeoRoute(id: id, vertices: vertices.map { .init(latitude: $0[0], longitude: $0[1]) })))
    }

    @Test("a route's turns are found and classified at their places; the last manoeuvre is arrival")
    func manoeuvresOfAKnownRoute() throws {
        let route = try Self.route(expected.synthetic.vertices)
        #expect(abs(route.length - expected.synthetic.length) < 0.01)
        #expect(route.manoeuvres.map(\.kind.rawValue) == expected.synthetic.manoeuvres.map(\.kind))
        for (found, wanted) in zip(route.manoeuvres, expected.synthetic.manoeuvres) {
            #expect(abs(found.distanceAlongRoute - wanted.along) < 0.01, "\(wanted.kind)")
            #expect(abs(found.turn - wanted.turn) < 0.5, "\(wanted.kind): \(found.turn)°")
        }
    }

    @Test("a road drawn with many vertices bending gently is not a manoeuvre; a rounded corner is one turn")
    func bendsAndRoundedCorners() throws {
        // A 90° bend spread over 300 m (a 3° change every 10 m), then a 90° corner rounded over 20 m.
        var vertices: [[Double]] = [[45.0, 13.0]]
        var azimuth = 0.0
        func leg(_ length: Double) {
            let last = vertices[vertices.count - 1]
            let next = LocalFrame(latitude: last[0], longitude: last[1], altitude: 0)
                .ecef(
                    of: ENUVector(
                        east: sin(azimuth * .pi / 180) * length, north: cos(azimuth * .pi / 180) * length, up: 0)
                ).geodetic
            vertices.append([next.latitude, next.longitude])
        }
        leg(100)
        for _ in 0..<30 {
            azimuth += 3
            leg(10)
        }
        leg(100)
        for _ in 0..<9 {
            azimuth -= 10
            leg(2.2)
        }
        leg(100)
        let route = try Self.route(vertices)
        #expect(route.manoeuvres.map(\.kind) == [.left, .arrive], "\(route.manoeuvres.map(\.turn))")
    }

    @Test("along a real GPX track: length, remaining distance at every point, progress through loops, arrival → nil")
    func alongTheVisnjanTrack() throws {
        let file = try GPXFile(contentsOf: PackagePaths.sample("gpx/around-visnjan-with-car.gpx"))
        let points = file.tracks.flatMap(\.points)
        #expect(points.count == expected.visnjan.points.count)
        let route = try #require(
            NavigationRoute(
                GeoRoute(id: "visnjan", vertices: points.map { .init(latitude: $0.latitude, longitude: $0.longitude) }))
        )
        // Chords in local frames against PROJ's geodesic: within a millimetre per kilometre.
        #expect(abs(route.length - expected.visnjan.length) < expected.visnjan.length * 1e-6)
        var navigator = RouteNavigator(route: route)
        var arrivedAt: Int?
        var previousRemaining = Double.infinity
        for (index, point) in points.enumerated() {
            let time = point.time?.timeIntervalSince1970
            let speed: Double? =
                index == 0
                ? nil
                : (expected.visnjan.along[index] - expected.visnjan.along[index - 1])
                    / max(1, (time ?? 0) - (points[index - 1].time?.timeIntervalSince1970 ?? 0))
            guard
                let info = navigator.update(
                    latitude: point.latitude, longitude: point.longitude, speed: speed, horizontalAccuracy: 5,
                    time: time)
            else {
                arrivedAt = arrivedAt ?? index
                continue
            }
            #expect(arrivedAt == nil, "navigation info after arrival at point \(index)")
            let remaining = expected.visnjan.length - expected.visnjan.along[index]
            #expect(
                abs(info.remainingDistance - remaining) < 0.05,
                "point \(index): \(info.remainingDistance) m left, PROJ says \(remaining)")
            #expect(info.snap.distanceFromRoute < 0.01)
            #expect(!info.isOffRoute)
            #expect(info.remainingDistance <= previousRemaining + 0.01)
            #expect(info.nextManoeuvre.distanceAlongRoute > info.snap.distanceAlongRoute)
            #expect(
                abs(info.distanceToManoeuvre - (info.nextManoeuvre.distanceAlongRoute - info.snap.distanceAlongRoute))
                    < 1e-9)
            if let seconds = info.remainingTime { #expect(seconds > 0 && seconds <= info.remainingDistance / 0.5) }
            previousRemaining = info.remainingDistance
        }
        // Navigation ends at the first point within 15 m of the end, along the route or (past half
        // way) in a straight line: this track curls back near its end.
        let arrival = try #require(arrivedAt)
        let track = expected.visnjan
        let firstWithin = track.along.indices.first { index in
            let remaining = track.length - track.along[index]
            return remaining <= 15 || (track.toEnd[index] <= 15 && remaining < track.length / 2)
        }
        #expect(arrival == firstWithin)
        #expect(arrival > points.count / 2)
        print(
            "Višnjan track as a route: \(String(format: "%.1f", route.length)) m, manoeuvres "
                + route.manoeuvres.map { "\($0.kind.rawValue)@\(Int($0.distanceAlongRoute))m" }.joined(separator: " ")
                + "; arrival at point \(arrival) of \(points.count)")
        #expect(navigator.hasArrived)
        #expect(navigator.update(latitude: points[0].latitude, longitude: points[0].longitude) == nil)
        navigator.reset()
        #expect(navigator.update(latitude: points[0].latitude, longitude: points[0].longitude) != nil)
    }

    @Test(
        "positions beside the track: distance from the route and the nearest point as PROJ measures them; off route beyond 40 m"
    )
    func offRoute() throws {
        let route = try Self.route(expected.visnjan.points, id: "visnjan")
        for offset in expected.visnjan.offsets {
            var navigator = RouteNavigator(route: route)
            // Progress at the segment's start first, as a traveller arriving there would have.
            _ = navigator.update(
                latitude: expected.visnjan.points[offset.segment][0],
                longitude: expected.visnjan.points[offset.segment][1])
            let update = navigator.update(latitude: offset.lat, longitude: offset.lon)
            let info = try #require(update)
            #expect(abs(info.snap.distanceFromRoute - offset.distance) < 0.05, "segment \(offset.segment)")
            #expect(abs(info.snap.distanceAlongRoute - offset.along) < 0.05, "segment \(offset.segment)")
            #expect(info.isOffRoute == (offset.distance > 40))
            if info.isOffRoute { #expect(info.instruction().hasPrefix("Off route: 70 m away")) }
        }
    }

    @Test("off-route has hysteresis; a poor fix widens the threshold")
    func hysteresisAndAccuracy() throws {
        let route = try Self.route(expected.synthetic.vertices)
        var navigator = RouteNavigator(route: route)
        let start = expected.synthetic.vertices[0]
        func beside(_ metres: Double) -> (Double, Double) {
            let p = LocalFrame(latitude: start[0], longitude: start[1], altitude: 0)
                .ecef(of: ENUVector(east: metres, north: 100, up: 0)).geodetic
            return (p.latitude, p.longitude)
        }
        var p = beside(45)
        #expect(navigator.update(latitude: p.0, longitude: p.1)?.isOffRoute == true)
        p = beside(35)  // inside 40 m but not inside 30 m: still off
        #expect(navigator.update(latitude: p.0, longitude: p.1)?.isOffRoute == true)
        p = beside(25)
        #expect(navigator.update(latitude: p.0, longitude: p.1)?.isOffRoute == false)
        p = beside(45)
        #expect(navigator.update(latitude: p.0, longitude: p.1, horizontalAccuracy: 20)?.isOffRoute == false)
    }

    @Test("a U-shaped route passing the same place twice: progress keeps the traveller on the leg they are on")
    func outAndBack() throws {
        // 300 m north, a U-turn, 300 m south 10 m east: the way back passes 10 m from the way out.
        let s = expected.synthetic.vertices[0]
        let frame = LocalFrame(latitude: s[0], longitude: s[1], altitude: 0)
        let vertices = [(0.0, 0.0), (0, 300), (10, 300), (10, 0)].map { point -> [Double] in
            let p = frame.ecef(of: ENUVector(east: point.0, north: point.1, up: 0)).geodetic
            return [p.latitude, p.longitude]
        }
        let route = try Self.route(vertices)
        var navigator = RouteNavigator(route: route)
        var last = -1.0
        for north in stride(from: 0.0, through: 300, by: 25) {
            let p = frame.ecef(of: ENUVector(east: 4, north: north, up: 0)).geodetic  // nearer the way out
            let update = navigator.update(latitude: p.latitude, longitude: p.longitude)
            let info = try #require(update)
            #expect(info.snap.distanceAlongRoute > last)
            last = info.snap.distanceAlongRoute
        }
        for north in stride(from: 270.0, through: 100, by: -25) {
            // Still nearer the way out, which is more than 20 m back along the route.
            let p = frame.ecef(of: ENUVector(east: 4.5, north: north, up: 0)).geodetic
            let update = navigator.update(latitude: p.latitude, longitude: p.longitude)
            let info = try #require(update)
            #expect(info.snap.distanceAlongRoute > last, "snapped back to the way out at \(north) m")
            last = info.snap.distanceAlongRoute
        }
    }

    @Test(
        "instructions and summaries read as a navigation panel does",
        arguments: [
            (ManoeuvreKind.left, 123.0, "Turn left in 120 m"), (.slightRight, 1234, "Bear right in 1.2 km"),
            (.uTurn, 4, "Make a U-turn now"), (.arrive, 55, "Arrive in 55 m"),
            (.sharpLeft, 300, "Turn sharp left in 300 m"),
        ])
    func instructions(kind: ManoeuvreKind, distance: Double, text: String) {
        let snap = RouteSnap(segment: 0, distanceAlongRoute: 0, distanceFromRoute: 0, latitude: 0, longitude: 0)
        let info = NavigationInfo(
            routeID: "r", snap: snap, routeLength: 5000, remainingDistance: 2300, remainingTime: 3900,
            nextManoeuvre: Manoeuvre(kind: kind, turn: 0, distanceAlongRoute: distance, latitude: 0, longitude: 0),
            distanceToManoeuvre: distance, isOffRoute: false)
        #expect(info.instruction() == text)
        #expect(info.summary() == "2.3 km · 1 h 05 min")
        #expect(ManoeuvreKind(turn: 10) == nil)
        #expect(ManoeuvreKind(turn: -170) == .uTurn)
    }
}
