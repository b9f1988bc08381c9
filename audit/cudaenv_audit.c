/* The rtld-audit library of `cudaenv trace` (see docs/trace.md).
 *
 * The dynamic loader runs it in every process started under
 * LD_AUDIT=<this library>: la_objsearch sees each place the loader tries for a
 * CUDA-family library (and why: RUNPATH/RPATH, LD_LIBRARY_PATH, ld.so.cache,
 * the default folders, or a path given as is), la_objopen sees each object
 * that is actually mapped, whether by DT_NEEDED, dlopen, ctypes or a
 * framework's preload. Each event is one line appended to the record file
 * that `cudaenv trace` opened:
 *
 *   P <pid> <ppid> <exe> <argv0>         each process at start (and after exec), and
 *                                        a forked child at its first load
 *   S <pid> <flag> <requester> <name>    a candidate path the loader tries
 *   O <pid> <lmid> <path>                an object the loader mapped
 *
 * fields separated by a TAB, paths with TAB/newline/backslash escaped.
 *
 * Rules: plain C, no C++ runtime, no malloc (one fixed buffer on the stack),
 * no stdio; every failure is silent so the traced program runs as it would
 * without us. The record file comes as CUDAENV_TRACE_FD=<fd>:<dev>:<ino>:<path>.
 * The fd is inherited (no close-on-exec), so it survives exec and re-exec; a
 * program that closed it (or reused its number: dev/ino is compared before
 * every write) gets the file reopened by its path, close-on-exec, so nothing
 * is ever written into a file of the program's own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "platform/audit_abi.h"

#define EXPORT __attribute__((visibility("default")))

static int rec_fd = -1;
static dev_t rec_dev;
static ino_t rec_ino;
static char rec_path[CUDAENV_AUDIT_PATH_MAX];
static int enabled;
static pid_t announced_pid;

static int parse_ull(const char **s, unsigned long long *out) {
    unsigned long long v = 0;
    const char *p = *s;
    if (*p < '0' || *p > '9') return 0;
    while (*p >= '0' && *p <= '9') v = v * 10 + (unsigned long long)(*p++ - '0');
    *out = v;
    *s = p;
    return 1;
}

static int fd_is_ours(int fd) {
    struct stat st;
    return fd >= 0 && fstat(fd, &st) == 0 && st.st_dev == rec_dev && st.st_ino == rec_ino;
}

/* The fd to write to, or -1: the inherited one while it is still the record
 * file, else the file reopened by path. */
static int record_fd(void) {
    if (fd_is_ours(rec_fd)) return rec_fd;
    int fd = open(rec_path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) return -1;
    if (!fd_is_ours(fd)) {
        close(fd);
        return -1;
    }
    rec_fd = fd;
    return fd;
}

struct buf {
    char data[8192];
    size_t len;
};

static void put(struct buf *b, const char *s) {
    for (; s && *s && b->len < sizeof b->data - 2; ++s) {
        char c = *s;
        const char *esc = c == '\t' ? "\\t" : c == '\n' ? "\\n" : c == '\\' ? "\\\\" : 0;
        if (esc) {
            if (b->len + 2 >= sizeof b->data - 2) break;
            b->data[b->len++] = esc[0];
            b->data[b->len++] = esc[1];
        } else {
            b->data[b->len++] = c;
        }
    }
}

/* A field separator: written as is. */
static void tab(struct buf *b) {
    if (b->len < sizeof b->data - 2) b->data[b->len++] = '\t';
}

static void put_num(struct buf *b, long long v) {
    char tmp[24];
    int n = 0;
    unsigned long long u = v < 0 ? (unsigned long long)(-v) : (unsigned long long)v;
    if (v < 0) put(b, "-");
    do tmp[n++] = (char)('0' + u % 10); while ((u /= 10) && n < 23);
    char out[24];
    int i = 0;
    while (n) out[i++] = tmp[--n];
    out[i] = 0;
    put(b, out);
}

static void flush_line(struct buf *b) {
    int fd = record_fd();
    if (fd < 0) return;
    b->data[b->len++] = '\n';
    /* One write() per line: O_APPEND keeps lines of many processes whole. */
    size_t off = 0;
    while (off < b->len) {
        ssize_t n = write(fd, b->data + off, b->len - off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        off += (size_t)n;
    }
}

/* Reads a small file of /proc into `out` (NUL-terminated); returns its length. */
static ssize_t read_small(const char *path, char *out, size_t cap) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, out, cap - 1);
    close(fd);
    if (n < 0) n = 0;
    out[n] = 0;
    return n;
}

/* The P line, once per process: a forked child carries our state over, so
 * the pid is compared, not a flag. */
static void announce(void) {
    pid_t pid = getpid();
    if (pid == announced_pid) return;
    announced_pid = pid;
    int saved = errno;
    char exe[1024], argv0[1024];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    read_small("/proc/self/cmdline", argv0, sizeof argv0); /* the first NUL ends argv[0] */
    struct buf b;
    b.len = 0;
    put(&b, "P");
    tab(&b);
    put_num(&b, pid);
    tab(&b);
    put_num(&b, getppid());
    tab(&b);
    put(&b, exe);
    tab(&b);
    put(&b, argv0);
    flush_line(&b);
    errno = saved;
}

static int starts_with(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

/* CUDA-family libraries and the driver's: only these are recorded. */
static int interesting(const char *path) {
    static const char *const prefixes[] = {
        "libcuda.", "libcudart", "libcublas", "libcufft", "libcurand", "libcusolver", "libcusparse", "libnvrtc",
        "libnvJitLink", "libnvToolsExt", "libnvtx", "libcudnn", "libnvidia-", "libcupti", "libnccl", "libnvjpeg", "libnpp",
    };
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; ++i)
        if (starts_with(base, prefixes[i])) return 1;
    return 0;
}

EXPORT unsigned int la_version(unsigned int version) {
    const char *spec = getenv(CUDAENV_AUDIT_ENV);
    unsigned long long fd, dev, ino;
    if (spec && parse_ull(&spec, &fd) && *spec++ == ':' && parse_ull(&spec, &dev) && *spec++ == ':' &&
        parse_ull(&spec, &ino) && *spec++ == ':' && strlen(spec) < sizeof rec_path) {
        rec_fd = (int)fd;
        rec_dev = (dev_t)dev;
        rec_ino = (ino_t)ino;
        strcpy(rec_path, spec);
        enabled = 1;
        announce(); /* every process of the tree, so the report can show who started whom */
    }
    /* Older loaders get the version they speak; without a record file we
     * still load (returning 0 would make the loader complain on stderr) and
     * simply record nothing. */
    return version < LAV_CURRENT ? version : LAV_CURRENT;
}

EXPORT char *la_objsearch(const char *name, uintptr_t *cookie, unsigned int flag) {
    if (!enabled || !name || !interesting(name)) return (char *)name;
    int saved = errno;
    announce();
    const struct link_map *requester = cookie ? (const struct link_map *)*cookie : 0;
    const char *what = flag == LA_SER_ORIG      ? "orig"
                       : flag == LA_SER_LIBPATH ? "libpath"
                       : flag == LA_SER_RUNPATH ? "runpath"
                       : flag == LA_SER_CONFIG  ? "config"
                       : flag == LA_SER_DEFAULT ? "default"
                       : flag == LA_SER_SECURE  ? "secure"
                                                : "other";
    struct buf b;
    b.len = 0;
    put(&b, "S");
    tab(&b);
    put_num(&b, getpid());
    tab(&b);
    put(&b, what);
    tab(&b);
    put(&b, requester && requester->l_name ? requester->l_name : "");
    tab(&b);
    put(&b, name);
    flush_line(&b);
    errno = saved;
    return (char *)name; /* never change what the loader does */
}

EXPORT unsigned int la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie) {
    (void)cookie;
    if (!enabled || !map || !map->l_name || !interesting(map->l_name)) return 0;
    int saved = errno;
    announce();
    struct buf b;
    b.len = 0;
    put(&b, "O");
    tab(&b);
    put_num(&b, getpid());
    tab(&b);
    put_num(&b, (long long)lmid);
    tab(&b);
    put(&b, map->l_name);
    flush_line(&b);
    errno = saved;
    return 0; /* no symbol-binding callbacks: they would cost on every call */
}
