/* vclick X Y [W H] [left|right|middle|move]: click at absolute output coords via zwlr_virtual_pointer_v1 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <wayland-client.h>
#include "vp.h"
#define BTN_LEFT 0x110
#define BTN_RIGHT 0x111
#define BTN_MIDDLE 0x112
static struct zwlr_virtual_pointer_manager_v1 *mgr; static struct wl_seat *seat;
static void g(void *d, struct wl_registry *r, uint32_t n, const char *i, uint32_t v) {
  if (!strcmp(i, zwlr_virtual_pointer_manager_v1_interface.name)) mgr = wl_registry_bind(r, n, &zwlr_virtual_pointer_manager_v1_interface, 1);
  else if (!strcmp(i, wl_seat_interface.name) && !seat) seat = wl_registry_bind(r, n, &wl_seat_interface, 1);
}
static void gr(void *d, struct wl_registry *r, uint32_t n) {}
static const struct wl_registry_listener rl = { g, gr };
static uint32_t ms(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec*1000 + t.tv_nsec/1000000; }
int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: vclick X Y [W H] [left|right|middle|move]\n"); return 2; }
  uint32_t x = atoi(argv[1]), y = atoi(argv[2]), w = argc > 4 ? atoi(argv[3]) : 1280, h = argc > 4 ? atoi(argv[4]) : 800;
  const char *b = argc > 5 ? argv[5] : "left";
  uint32_t btn = !strcmp(b, "right") ? BTN_RIGHT : !strcmp(b, "middle") ? BTN_MIDDLE : BTN_LEFT;
  struct wl_display *d = wl_display_connect(NULL); if (!d) { perror("wl_display_connect"); return 1; }
  struct wl_registry *r = wl_display_get_registry(d); wl_registry_add_listener(r, &rl, NULL); wl_display_roundtrip(d);
  if (!mgr) { fprintf(stderr, "no zwlr_virtual_pointer_manager_v1\n"); return 1; }
  struct zwlr_virtual_pointer_v1 *p = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(mgr, seat);
  wl_display_roundtrip(d); usleep(100000);          /* let clients bind wl_pointer on the new capability */
  zwlr_virtual_pointer_v1_motion_absolute(p, ms(), x, y, w, h); zwlr_virtual_pointer_v1_frame(p);
  wl_display_roundtrip(d); usleep(100000);          /* enter/motion reach the surface */
  if (strcmp(b, "move")) {
    zwlr_virtual_pointer_v1_button(p, ms(), btn, WL_POINTER_BUTTON_STATE_PRESSED); zwlr_virtual_pointer_v1_frame(p);
    wl_display_roundtrip(d); usleep(50000);
    zwlr_virtual_pointer_v1_button(p, ms(), btn, WL_POINTER_BUTTON_STATE_RELEASED); zwlr_virtual_pointer_v1_frame(p);
    wl_display_roundtrip(d); usleep(50000);
  }
  zwlr_virtual_pointer_v1_destroy(p); wl_display_roundtrip(d); wl_display_disconnect(d); return 0;
}
