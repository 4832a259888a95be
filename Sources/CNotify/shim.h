// libnotify: the agent's notifications (NotificationWorker makes every call, on its own thread).
#include <libnotify/notify.h>
