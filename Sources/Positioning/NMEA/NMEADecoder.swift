import ArcaptureCore
import Foundation

/// Turns NMEA 0183 lines into fixes, orientations and status changes, one line at a time, for
/// serial ports and log files alike.
///
/// - Sentences: GGA, RMC, GLL (position), GSA (mode, dilution), GST (error estimates), VTG (course,
///   speed), ZDA (date), HDT and THS (true heading), HDG (magnetic heading, used when it carries the
///   variation) and `$PASHR` (heading, roll and pitch from an inertial unit). Talkers GP, GN, GL,
///   GA, GB and GQ are equivalent. Other valid sentences are counted in
///   ``NMEAStatistics/skipped`` and ignored.
/// - Damage: a bad or missing checksum or a field that does not parse skips that sentence with a
///   ``LocationEvent/warning(_:)`` naming the line, and is counted; it is never fatal.
/// - Epochs: the sentences that share a time of day are merged into one ``LocationFix``, delivered
///   when a sentence with a later time starts the next epoch, or at ``flush()`` (end of input, or a
///   quiet serial line).
/// - Dates: RMC and ZDA carry the date; epochs before the first date wait for it (up to an hour of
///   them), and midnight is crossed when the time of day wraps. Epochs whose time does not advance
///   are skipped and counted.
public struct NMEADecoder: Sendable {
    /// Everything seen so far.
    public private(set) var statistics = NMEAStatistics()

    private var epoch: NMEAEpoch?
    /// Days since 1970 of the newest date heard, and the time of day it applied to.
    private var day: Int?
    private var lastTimeOfDay: Double?
    private var undated: [NMEAEpoch] = []
    private var undatedOrientations: [(timeOfDay: Double, sample: OrientationSample)] = []
    private var lastFixTime: Date?
    private var lastOrientationTime: Date?
    private var hadFix = false
    /// The newest position with a fix, where a magnetic heading's declination is taken.
    private var lastPosition: (latitude: Double, longitude: Double)?
    /// Whether a magnetic heading without a declination has been warned of (once is enough).
    private var saidNoDeclination = false
    /// Whether the last sentences were time-less "no position" ones (one epoch, counted once).
    private var inUntimedEpoch = false
    private var reportedMode: FixMode?

    /// Undated epochs kept while waiting for a date: an hour at 1 Hz.
    private static let undatedLimit = 3600

    /// Creates a decoder.
    public init() {}

    /// Decodes one line and returns the events it completes (usually the previous epoch's fix).
    ///
    /// - Parameters:
    ///   - line: the line, with or without its CR/LF.
    ///   - lineNumber: the line's number in its file, for warnings; nil for a serial port.
    ///   - receivedMonotonicNanoseconds: when a live line arrived (CLOCK_MONOTONIC); nil for files.
    public mutating func decode(
        line: Substring, lineNumber: Int? = nil, receivedMonotonicNanoseconds: Int64? = nil
    ) -> [LocationEvent] {
        statistics.lines += 1
        let sentence: NMEASentence
        switch NMEASentence.parse(line) {
        case .success(let parsed): sentence = parsed
        case .failure(.notASentence):
            statistics.otherLines += 1
            return []
        case .failure(let problem):
            if case .missingChecksum = problem { statistics.truncated += 1 } else { statistics.badChecksums += 1 }
            return [warning(problem.description, lineNumber)]
        }
        var events: [LocationEvent] = []
        let used = apply(sentence, lineNumber: lineNumber, received: receivedMonotonicNanoseconds, into: &events)
        if used { statistics.sentences[sentence.type, default: 0] += 1 }
        return events
    }

    /// Ends the current epoch and delivers what it holds: call it at the end of a file, or when a
    /// serial line has been quiet for a moment, so the newest fix is not held back.
    public mutating func flush() -> [LocationEvent] {
        var events: [LocationEvent] = []
        closeEpoch(into: &events)
        return events
    }

    // MARK: Sentences

    /// Applies one sentence; returns whether it was used (false: skipped or malformed).
    private mutating func apply(
        _ sentence: NMEASentence, lineNumber: Int?, received: Int64?, into events: inout [LocationEvent]
    ) -> Bool {
        func malformed(_ what: String) -> Bool {
            statistics.malformed += 1
            events.append(warning("\(sentence.talker)\(sentence.type): \(what)", lineNumber))
            return false
        }
        switch sentence.type {
        case "GGA":
            guard let time = sentence.timeOfDay(0) else {
                // Receivers without a fix send GGA with every field empty: no position, not damage.
                if sentence[0] == nil && (sentence.number(5) ?? 0) == 0 { return noPositionYet(into: &events) }
                return malformed("bad time '\(sentence[0] ?? "")'")
            }
            guard let quality = sentence.integer(5) else { return malformed("no fix quality") }
            startEpoch(at: time, line: lineNumber, received: received, into: &events)
            if quality > 0 {
                guard takePosition(sentence, at: 1) else { return malformed("bad position") }
            } else {
                epoch?.markValidity(false)
            }
            epoch?.ggaQuality = quality
            if let hdop = sentence.number(7), hdop > 0 { epoch?.horizontalDilution = hdop }
            if quality > 0, let altitude = sentence.number(8) {
                epoch?.altitudeMeanSeaLevel = altitude
                epoch?.geoidSeparation = sentence.number(10)
            }
            return true
        case "RMC":
            guard let time = sentence.timeOfDay(0) else {
                if sentence[0] == nil && sentence[1] != "A" { return noPositionYet(into: &events) }
                return malformed("bad time '\(sentence[0] ?? "")'")
            }
            startEpoch(at: time, line: lineNumber, received: received, into: &events)
            if let date = sentence[8] {
                guard let day = Self.day(ddmmyy: date) else { return malformed("bad date '\(date)'") }
                epoch?.day = day
            }
            let valid = sentence[1] == "A"
            if valid {
                guard takePosition(sentence, at: 2) else { return malformed("bad position") }
                if let knots = sentence.number(6) { epoch?.speedMetresPerSecond = knots * 1852 / 3600 }
                if let course = sentence.number(7) { epoch?.course = course }
            } else {
                epoch?.markValidity(false)
            }
            return true
        case "GLL":
            guard let time = sentence.timeOfDay(4) else { return malformed("bad time") }
            startEpoch(at: time, line: lineNumber, received: received, into: &events)
            if sentence[5] == "A" {
                guard takePosition(sentence, at: 0) else { return malformed("bad position") }
            } else {
                epoch?.markValidity(false)
            }
            return true
        case "GNS":
            guard let time = sentence.timeOfDay(0) else {
                if sentence[0] == nil { return noPositionYet(into: &events) }
                return malformed("bad time '\(sentence[0] ?? "")'")
            }
            startEpoch(at: time, line: lineNumber, received: received, into: &events)
            // The mode field has one letter per constellation; N is "no fix" for that one.
            if let modes = sentence[5], modes.contains(where: { $0 != "N" }) {
                guard takePosition(sentence, at: 1) else { return malformed("bad position") }
                if let hdop = sentence.number(7), hdop > 0 { epoch?.horizontalDilution = hdop }
                if let altitude = sentence.number(8), epoch?.altitudeMeanSeaLevel == nil {
                    epoch?.altitudeMeanSeaLevel = altitude
                    epoch?.geoidSeparation = sentence.number(9)
                }
            } else {
                epoch?.markValidity(false)
            }
            return true
        case "GSA":
            guard epoch != nil else { return skip(sentence) }
            if let mode = sentence.integer(1) { epoch?.gsaMode = mode }
            if let hdop = sentence.number(15), hdop > 0 { epoch?.horizontalDilution = hdop }
            if let vdop = sentence.number(16), vdop > 0 { epoch?.verticalDilution = vdop }
            return true
        case "GST":
            guard let time = sentence.timeOfDay(0) else { return malformed("bad time") }
            startEpoch(at: time, line: lineNumber, received: received, into: &events)
            epoch?.sigmaLatitude = sentence.number(5)
            epoch?.sigmaLongitude = sentence.number(6)
            epoch?.sigmaAltitude = sentence.number(7)
            return true
        case "VTG":
            guard epoch != nil else { return skip(sentence) }
            if let course = sentence.number(0) { epoch?.course = course }
            if let kmh = sentence.number(6) {
                epoch?.speedMetresPerSecond = kmh / 3.6
            } else if let knots = sentence.number(4) {
                epoch?.speedMetresPerSecond = knots * 1852 / 3600
            }
            return true
        case "ZDA":
            guard let time = sentence.timeOfDay(0) else { return malformed("bad time") }
            guard let dd = sentence.integer(1), let mm = sentence.integer(2), let yyyy = sentence.integer(3),
                let day = UTCTime.daysSince1970(year: yyyy, month: mm, day: dd)
            else { return malformed("bad date") }
            startEpoch(at: time, line: lineNumber, received: received, into: &events)
            epoch?.day = day
            return true
        case "HDT", "THS":
            guard let heading = sentence.number(0), (0...360).contains(heading) else {
                return malformed("bad heading '\(sentence[0] ?? "")'")
            }
            if sentence.type == "THS" && sentence[1] == "V" { return skip(sentence) }
            return addHeading(heading, origin: .trueHeading)
        case "HDG":
            guard let magnetic = sentence.number(0) else { return malformed("bad heading") }
            let deviation = Self.signed(sentence.number(1), sentence[2]) ?? 0
            guard let variation = Self.signed(sentence.number(3), sentence[4]) else {
                // No variation: made true with the World Magnetic Model where the receiver is.
                return addHeading(CompassDegrees.wrapped(magnetic + deviation), origin: .compass, magnetic: true)
            }
            return addHeading(CompassDegrees.wrapped(magnetic + deviation + variation), origin: .compass)
        case "HDM":
            guard let magnetic = sentence.number(0), (0...360).contains(magnetic) else {
                return malformed("bad heading '\(sentence[0] ?? "")'")
            }
            return addHeading(CompassDegrees.wrapped(magnetic), origin: .compass, magnetic: true)
        case "ASHR" where sentence.talker == "P":
            guard let time = sentence.timeOfDay(0), let heading = sentence.number(1) else {
                return malformed("bad time or heading")
            }
            let sample = OrientationSample(
                time: Date(timeIntervalSince1970: 0), heading: CompassDegrees.wrapped(heading),
                pitch: sentence.number(4),
                roll: sentence.number(3), headingAccuracy: sentence.number(8), origin: .inertial,
                receivedMonotonicNanoseconds: received)
            undatedOrientations.append((time, sample))
            releaseOrientations(into: &events)
            return true
        default:
            return skip(sentence)
        }
    }

    /// Sets the open epoch's position from the latitude at field `index` (its hemisphere, then the
    /// longitude and its hemisphere follow); false when they do not parse.
    private mutating func takePosition(_ sentence: NMEASentence, at index: Int) -> Bool {
        guard let latitude = sentence.angle(index, positive: "N", negative: "S", limit: 90),
            let longitude = sentence.angle(index + 2, positive: "E", negative: "W", limit: 180)
        else { return false }
        epoch?.setPosition(latitude: latitude, longitude: longitude, valid: true)
        return true
    }

    /// Heading sentences carry no time: they belong to the open epoch. Only the first of an epoch
    /// (the closest to its time) is used; receivers that send headings faster than positions would
    /// otherwise give many samples with one time.
    /// Adds the epoch's heading; a `magnetic` one is made true when the epoch is delivered, with
    /// the declination where the receiver is then.
    private mutating func addHeading(_ heading: Double, origin: OrientationSample.Origin, magnetic: Bool = false)
        -> Bool
    {
        guard let current = epoch else {
            statistics.unusableHeadings += 1
            return false
        }
        guard current.headings.isEmpty else {
            statistics.repeatedHeadings += 1
            return false
        }
        epoch?.headings.append((heading, origin, magnetic))
        return true
    }

    private mutating func skip(_ sentence: NMEASentence) -> Bool {
        statistics.skipped[sentence.type, default: 0] += 1
        return false
    }

    /// A GGA, RMC or GNS without time or position: the receiver has no fix (yet).
    private mutating func noPositionYet(into events: inout [LocationEvent]) -> Bool {
        // It starts an epoch of its own (without a time), so what follows must not join the last one.
        closeEpoch(into: &events)
        if !inUntimedEpoch { statistics.epochsWithoutFix += 1 }
        inUntimedEpoch = true
        report(mode: .noFix, into: &events)
        return true
    }

    // MARK: Epochs

    private mutating func startEpoch(at time: Double, line: Int?, received: Int64?, into events: inout [LocationEvent])
    {
        if let current = epoch, abs(current.timeOfDay - time) < 0.0005 { return }
        closeEpoch(into: &events)
        inUntimedEpoch = false
        epoch = NMEAEpoch(timeOfDay: time, firstLine: line, receivedMonotonicNanoseconds: received)
    }

    private mutating func closeEpoch(into events: inout [LocationEvent]) {
        guard let closing = epoch else { return }
        epoch = nil
        if let known = closing.day {
            day = known
            lastTimeOfDay = closing.timeOfDay
            // The first date dates the epochs that waited for it (the day before, if they were later
            // in the day than this one: they came before midnight).
            for waiting in undated {
                emit(waiting, day: waiting.timeOfDay > closing.timeOfDay + 1 ? known - 1 : known, into: &events)
            }
            undated.removeAll()
            emit(closing, day: known, into: &events)
        } else if let current = day, let last = lastTimeOfDay {
            let rolled = closing.timeOfDay + 43_200 < last ? current + 1 : current
            day = rolled
            lastTimeOfDay = closing.timeOfDay
            emit(closing, day: rolled, into: &events)
        } else {
            if undated.count == Self.undatedLimit { undated.removeFirst() }
            undated.append(closing)
        }
        releaseOrientations(into: &events)
    }

    private mutating func emit(_ epoch: NMEAEpoch, day: Int, into events: inout [LocationEvent]) {
        let time = Date(timeIntervalSince1970: Double(day) * 86_400 + epoch.timeOfDay)
        if let last = lastFixTime, time <= last {
            statistics.nonMonotonic += 1
            events.append(
                warning(
                    "time went back from \(UTCTime.format(last)) to \(UTCTime.format(time)); epoch skipped",
                    epoch.firstLine))
            return
        }
        lastFixTime = time
        let mode = epoch.mode
        if mode >= .twoD, let latitude = epoch.latitude, let longitude = epoch.longitude {
            lastPosition = (latitude, longitude)
        }
        for (heading, origin, magnetic) in epoch.headings {
            var fromTrueNorth = heading
            if magnetic {
                guard let made = trueHeading(fromMagnetic: heading, at: time, line: epoch.firstLine, into: &events)
                else { continue }
                fromTrueNorth = made
            }
            deliver(
                OrientationSample(
                    time: time, heading: fromTrueNorth, origin: origin,
                    receivedMonotonicNanoseconds: epoch.receivedMonotonicNanoseconds), into: &events)
        }
        guard mode >= .twoD, let latitude = epoch.latitude, let longitude = epoch.longitude,
            let coordinate = GeodeticCoordinate(
                latitude: latitude, longitude: longitude,
                altitude: epoch.geoidSeparation.flatMap { separation in
                    epoch.altitudeMeanSeaLevel.map { $0 + separation }
                })
        else {
            statistics.epochsWithoutFix += 1
            report(mode: .noFix, into: &events)
            return
        }
        var horizontal: Double?
        if let sigmaLatitude = epoch.sigmaLatitude, let sigmaLongitude = epoch.sigmaLongitude {
            horizontal = (sigmaLatitude * sigmaLatitude + sigmaLongitude * sigmaLongitude).squareRoot()
        } else if let hdop = epoch.horizontalDilution, hdop > 0 {
            horizontal = hdop * NMEAEpoch.assumedRangeError
        }
        let vertical = epoch.sigmaAltitude ?? epoch.verticalDilution.map { $0 * NMEAEpoch.assumedRangeError }
        let fix = LocationFix(
            time: time, coordinate: coordinate, mode: mode,
            receivedMonotonicNanoseconds: epoch.receivedMonotonicNanoseconds,
            altitudeMeanSeaLevel: epoch.altitudeMeanSeaLevel, geoidSeparation: epoch.geoidSeparation,
            horizontalAccuracy: horizontal, verticalAccuracy: mode == .threeD ? vertical : nil,
            course: epoch.course, speed: epoch.speedMetresPerSecond)
        report(mode: mode, into: &events)
        hadFix = true
        statistics.fixes += 1
        events.append(.fix(fix))
    }

    /// A magnetic heading (HDM, HDG without its variation) made true with the World Magnetic
    /// Model's declination at the receiver's position (this epoch's, else the last one's) and the
    /// epoch's time; nil, counted as unusable, before any position or where no model applies (said
    /// once).
    private mutating func trueHeading(
        fromMagnetic heading: Double, at time: Date, line: Int?, into events: inout [LocationEvent]
    ) -> Double? {
        guard let position = lastPosition else {
            statistics.unusableHeadings += 1
            return nil
        }
        do {
            let declination = try MagneticDeclination.at(
                latitude: position.latitude, longitude: position.longitude, time: time)
            statistics.declinationModel = declination.model
            statistics.magneticHeadings += 1
            return declination.trueHeading(fromMagnetic: heading)
        } catch {
            statistics.unusableHeadings += 1
            if !saidNoDeclination {
                saidNoDeclination = true
                events.append(warning("a magnetic heading is not used: \(error.description)", line))
            }
            return nil
        }
    }

    /// Dates and delivers the PASHR samples once a date is known.
    private mutating func releaseOrientations(into events: inout [LocationEvent]) {
        guard let day, let last = lastTimeOfDay else { return }
        for (timeOfDay, sample) in undatedOrientations {
            var dated = sample
            let sampleDay = timeOfDay + 43_200 < last ? day + 1 : (timeOfDay > last + 43_200 ? day - 1 : day)
            dated.time = Date(timeIntervalSince1970: Double(sampleDay) * 86_400 + timeOfDay)
            deliver(dated, into: &events)
        }
        undatedOrientations.removeAll()
    }

    private mutating func deliver(_ sample: OrientationSample, into events: inout [LocationEvent]) {
        // Samples of one origin must advance; different origins interleave freely.
        if sample.origin == .inertial {
            if let last = lastOrientationTime, sample.time <= last {
                statistics.nonMonotonic += 1
                return
            }
            lastOrientationTime = sample.time
        }
        statistics.orientations += 1
        events.append(.orientation(sample))
    }

    private mutating func report(mode: FixMode, into events: inout [LocationEvent]) {
        guard mode != reportedMode else { return }
        reportedMode = mode
        if mode == .noFix {
            events.append(.status(hadFix ? .lost : .noFix))
        } else {
            events.append(.status(.fix(mode)))
        }
    }

    private func warning(_ text: String, _ line: Int?) -> LocationEvent {
        .warning(line.map { "line \($0): \(text)" } ?? text)
    }

    // MARK: Fields

    private static func signed(_ value: Double?, _ direction: Substring?) -> Double? {
        guard let value, let direction else { return nil }
        switch direction {
        case "E": return value
        case "W": return -value
        default: return nil
        }
    }

    /// `ddmmyy`: two-digit years 80–99 are 1980–1999, the rest 2000–2079 (GPS began in 1980).
    static func day(ddmmyy text: Substring) -> Int? {
        guard text.count == 6, let value = Int(text) else { return nil }
        let year2 = value % 100
        return UTCTime.daysSince1970(
            year: year2 >= 80 ? 1900 + year2 : 2000 + year2, month: (value / 100) % 100, day: value / 10_000)
    }
}
