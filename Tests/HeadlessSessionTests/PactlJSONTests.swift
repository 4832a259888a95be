import Foundation
import Testing
@testable import HeadlessSession

/// `pactl --format=json` answers as pactl 16.1 gave them, from PulseAudio 16.1 and from
/// pipewire-pulse 0.3.65: trimmed of properties, and PipeWire's with mutes, volumes, a role and a
/// second stream changed or added to cover more cases.
@Suite("pactl JSON answers")
struct PactlJSONTests {
    static let pulseAudioSinks = #"""
        [{"index":0,"state":"RUNNING","name":"tocsin_null","description":"Null Output","driver":"module-null-sink.c","sample_specification":"s16le 2ch 44100Hz","channel_map":"front-left,front-right","owner_module":0,"mute":false,"volume":{"front-left":{"value":19660,"value_percent":"30%","db":"-31.37 dB"},"front-right":{"value":45875,"value_percent":"70%","db":"-9.29 dB"}},"balance":0.57,"base_volume":{"value":65536,"value_percent":"100%","db":"0.00 dB"},"monitor_source":"tocsin_null.monitor","latency":{"actual":1487979.00,"configured":1960000.00},"flags":["DECIBEL_VOLUME","LATENCY","SET_FORMATS"],"properties":{"device.description":"Null Output","device.class":"abstract","device.icon_name":"audio-card"},"ports":[],"active_port":null,"formats":["pcm"]}]
        """#
    static let pulseAudioSinkInputs = #"""
        [{"index":0,"driver":"protocol-native.c","owner_module":"1","client":"2","sink":0,"sample_specification":"s16le 2ch 44100Hz","channel_map":"front-left,front-right","format":"pcm, format.sample_format = \"\\\"s16le\\\"\"  format.rate = \"44100\"  format.channels = \"2\"  format.channel_map = \"\\\"front-left,front-right\\\"\"","corked":false,"mute":false,"volume":{"front-left":{"value":65536,"value_percent":"100%","db":"0.00 dB"},"front-right":{"value":65536,"value_percent":"100%","db":"0.00 dB"}},"balance":0.00,"buffer_latency_usec":2000000.00,"sink_latency_usec":1480974.00,"resample_method":"","properties":{"application.name":"tocsin-session-silence","media.name":"silence","native-protocol.peer":"UNIX socket client","application.process.id":"3592","application.process.binary":"pacat"}}]
        """#
    static let pipeWireSinks = #"""
        [{"index":45,"state":"RUNNING","name":"tocsin_null","description":"tocsin_null Audio/Sink sink","driver":"PipeWire","sample_specification":"float32le 2ch 44100Hz","channel_map":"front-left,front-right","owner_module":536870913,"mute":true,"volume":{"front-left":{"value":19661,"value_percent":"30%","db":"-31.37 dB"},"front-right":{"value":65536,"value_percent":"100%","db":"0.00 dB"}},"balance":0.00,"base_volume":{"value":65536,"value_percent":"100%","db":"0.00 dB"},"monitor_source":"tocsin_null.monitor","latency":{"actual":0.00,"configured":0.00},"flags":["DECIBEL_VOLUME","LATENCY"],"properties":{"node.name":"tocsin_null","media.class":"Audio/Sink","factory.name":"support.null-audio-sink"},"ports":[],"active_port":null,"formats":["pcm"]}]
        """#
    /// A linked stream, and one WirePlumber has not linked yet (its sink is PA_INVALID_INDEX).
    static let pipeWireSinkInputs = #"""
        [{"index":97,"driver":"PipeWire","owner_module":null,"client":"96","sink":45,"sample_specification":"s16le 2ch 44100Hz","channel_map":"front-left,front-right","corked":false,"mute":true,"volume":{"front-left":{"value":65536,"value_percent":"100%","db":"0.00 dB"},"front-right":{"value":32768,"value_percent":"79%","db":"-6.02 dB"}},"balance":0.00,"properties":{"application.name":"paplay","media.name":"tone.wav","media.role":"alarm","application.process.id":"18371"}},
         {"index":46,"driver":"PipeWire","owner_module":null,"client":"45","sink":4294967295,"sample_specification":"s16le 2ch 44100Hz","channel_map":"mono","corked":false,"mute":false,"volume":{"mono":{"value":65536,"value_percent":"100%","db":"0.00 dB"}},"balance":0.00,"properties":{"application.name":"pacat"}}]
        """#

    @Test("sinks: name, mute, raw volumes in channel-map order, owner module, on both servers")
    func sinks() throws {
        let pulse = try #require(try PactlJSON.sinks(Self.pulseAudioSinks).first)
        #expect(pulse.name == "tocsin_null" && pulse.index == 0 && pulse.description == "Null Output")
        #expect(!pulse.muted && pulse.state == "RUNNING" && pulse.ownerModule == 0)
        #expect(pulse.channelNames == ["front-left", "front-right"])
        #expect(pulse.channelVolumes == [19_660, 45_875] && pulse.channelPercents == [30, 70])

        let pipe = try #require(try PactlJSON.sinks(Self.pipeWireSinks).first)
        #expect(pipe.muted && pipe.ownerModule == 536_870_913)
        #expect(pipe.channelVolumes == [19_661, 65_536] && pipe.channelPercents == [30, 100])
    }

    @Test("sink inputs: process id, role, the sink by name, and none for a stream not linked yet")
    func sinkInputs() throws {
        let pulseSinks = try PactlJSON.sinks(Self.pulseAudioSinks)
        let silence = try #require(try PactlJSON.sinkInputs(Self.pulseAudioSinkInputs, sinks: pulseSinks).first)
        #expect(silence.sinkName == "tocsin_null" && silence.sinkIndex == 0)
        #expect(silence.processID == 3592 && silence.applicationName == "tocsin-session-silence" && silence.mediaRole == nil)

        let inputs = try PactlJSON.sinkInputs(Self.pipeWireSinkInputs, sinks: try PactlJSON.sinks(Self.pipeWireSinks))
        #expect(inputs.count == 2)
        let tone = inputs[0]
        #expect(tone.sinkName == "tocsin_null" && tone.sinkIndex == 45 && tone.muted)
        #expect(tone.processID == 18_371 && tone.mediaRole == "alarm" && tone.properties["media.name"] == "tone.wav")
        #expect(tone.channelVolumes == [65_536, 32_768] && tone.channelPercents == [100, 50])
        let unlinked = inputs[1]
        #expect(unlinked.sinkIndex == nil && unlinked.sinkName == nil && unlinked.processID == nil)
        #expect(unlinked.channelNames == ["mono"] && unlinked.channelVolumes == [65_536])
    }

    @Test("server info: the name and default sink")
    func info() throws {
        let info = try PactlJSON.serverInfo(#"{"server_name":"PulseAudio (on PipeWire 0.3.65)","server_version":"15.0.0","default_sink_name":"tocsin_null"}"#)
        #expect(info.serverName == "PulseAudio (on PipeWire 0.3.65)" && info.defaultSink == "tocsin_null")
    }

    @Test("an answer without what the session reads is refused, saying what is missing")
    func refusesIncompleteAnswers() {
        #expect(throws: PactlJSON.Unreadable.self) { try PactlJSON.sinks("Connection failure: Connection refused") }
        let noVolume = #"[{"index":1,"name":"x","channel_map":"front-left","mute":false}]"#
        let volumeError = #expect(throws: PactlJSON.Unreadable.self) { try PactlJSON.sinks(noVolume) }
        #expect(volumeError?.description.contains("no volume") == true, "\(String(describing: volumeError))")
        let missingChannel = #"[{"index":1,"name":"x","channel_map":"front-left,front-right","mute":false,"volume":{"front-left":{"value":1}}}]"#
        let channelError = #expect(throws: PactlJSON.Unreadable.self) { try PactlJSON.sinks(missingChannel) }
        #expect(channelError?.description.contains("front-right") == true, "\(String(describing: channelError))")
    }

    @Test("percents round as pactl prints them")
    func percents() {
        #expect(VolumeScale.percent(65_536) == 100)
        #expect(VolumeScale.percent(19_660) == 30 && VolumeScale.percent(19_661) == 30)
        #expect(VolumeScale.percent(1_966) == 3)
        #expect(VolumeScale.percent(32_768) == 50)
        #expect(VolumeScale.percent(0) == 0)
    }
}
