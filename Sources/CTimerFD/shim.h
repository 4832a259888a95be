// timerfd is not part of Swift's Glibc module: the agent arms absolute wall-clock deadlines with it.
#include <sys/timerfd.h>
