// glibc's posix_spawn extensions, declared only under _GNU_SOURCE, which Swift's Glibc module is
// built without: closing every inherited descriptor in the child (glibc 2.34) and starting it in
// another directory (glibc 2.29). SpawnedProcess (HeadlessSession) uses them.
#include <spawn.h>

extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
