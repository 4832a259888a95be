#!/usr/bin/python3
"""Many D-Bus calls to tocsind from ONE client process and ONE bus connection, timed per call.

tocsin-bench links only Foundation and HeadlessSession, so it cannot speak D-Bus itself; this helper
does it through GDBus (PyGObject), the same D-Bus library Tocsin's own client uses. It answers
"how long does an application take to schedule 1,000 alarms", which spawning `tocsin` 1,000 times
would not: that would measure 1,000 process start-ups as well.

Usage:
  tocsin-dbus.py [--app-id ID] schedule REQUESTS.json   a JSON list of Schedule request dictionaries
  tocsin-dbus.py [--app-id ID] call METHOD ID...        call METHOD (Stop, Cancel…) once for each id
  tocsin-dbus.py [--app-id ID] status N                 call GetStatus N times

--app-id: say who is calling (IdentifyApplication) first, as an application would; otherwise the
agent knows the helper by its executable's name ("python3.11"). The user must have allowed that
application (`tocsin auth grant ID`), or the first Schedule waits for an answer to the agent's
question.

Prints one JSON object: {"ids": [...], "callSeconds": [...], "totalSeconds": x, "errors": [...]};
"totalSeconds" runs from the first call to the last reply (the interpreter's start-up excluded).
"""
import json
import sys
import time

from gi.repository import Gio, GLib

BUS_NAME = "io.github.tocsin.Agent"
OBJECT_PATH = "/io/github/tocsin/Agent"
INTERFACE = "io.github.tocsin.Alarms1"

# The D-Bus type of each request key (dbus/io.github.tocsin.Alarms1.xml).
DOUBLE_KEYS = {"duration", "at", "pre-alert", "late-limit", "snooze", "ring-limit"}
STRING_MAP_KEYS = {"hooks"}


def variant(key, value):
    if key in DOUBLE_KEYS:
        return GLib.Variant("d", float(value))
    if key in STRING_MAP_KEYS:
        return GLib.Variant("a{ss}", value)
    return GLib.Variant("s", str(value))


def timed_calls(bus, method, argument_tuples, reply_type):
    ids, seconds, errors = [], [], []
    started = time.monotonic()
    for arguments in argument_tuples:
        before = time.monotonic()
        try:
            reply = bus.call_sync(BUS_NAME, OBJECT_PATH, INTERFACE, method, arguments,
                                  reply_type, Gio.DBusCallFlags.NONE, 120000, None)
            # Schedule answers an id; GetStatus a dictionary, which is not kept.
            if reply is not None and reply.n_children() > 0 and reply.get_child_value(0).get_type_string() == "s":
                ids.append(reply.get_child_value(0).get_string())
        except GLib.Error as error:
            errors.append(error.message)
        seconds.append(time.monotonic() - before)
    return {"ids": ids, "callSeconds": seconds, "totalSeconds": time.monotonic() - started, "errors": errors}


def main(arguments):
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    if len(arguments) >= 2 and arguments[0] == "--app-id":
        bus.call_sync(BUS_NAME, OBJECT_PATH, INTERFACE, "IdentifyApplication", GLib.Variant("(s)", (arguments[1],)),
                      None, Gio.DBusCallFlags.NONE, 10000, None)
        arguments = arguments[2:]
    if len(arguments) == 2 and arguments[0] == "schedule":
        with open(arguments[1], encoding="utf-8") as file:
            requests = json.load(file)
        tuples = [GLib.Variant("(a{sv})", ({key: variant(key, value) for key, value in request.items()},))
                  for request in requests]
        result = timed_calls(bus, "Schedule", tuples, GLib.VariantType("(s)"))
    elif len(arguments) >= 2 and arguments[0] == "call":
        tuples = [GLib.Variant("(s)", (alarm_id,)) for alarm_id in arguments[2:]]
        result = timed_calls(bus, arguments[1], tuples, None)
    elif len(arguments) == 2 and arguments[0] == "status":
        result = timed_calls(bus, "GetStatus", [None] * int(arguments[1]), None)
    else:
        sys.stderr.write(__doc__)
        return 2
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
