// libnotify, GIO and the Unix parts of GLib in one module: they share GLib's types.
#include <libnotify/notify.h>
#include <gio/gio.h>
#include <glib-unix.h>
