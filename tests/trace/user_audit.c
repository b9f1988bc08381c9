/* A user's own rtld-audit library: `cudaenv trace` must keep it running
 * (LD_AUDIT is a list). It says so on stderr once per process. */
#define _GNU_SOURCE
#include <link.h>
#include <string.h>
#include <unistd.h>

unsigned int la_version(unsigned int version) {
    static const char msg[] = "user-audit: la_version\n";
    ssize_t n = write(2, msg, sizeof msg - 1);
    (void)n;
    return version;
}
