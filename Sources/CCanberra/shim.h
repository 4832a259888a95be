// libcanberra: the agent plays alarm sounds itself so a muted notification server cannot silence them.
#include <canberra.h>
