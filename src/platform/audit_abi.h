/* What `cudaenv trace` (src/platform/tracer_posix.cpp) and its rtld-audit
 * library (audit/cudaenv_audit.c) agree on. Plain C: the library includes it too. */
#ifndef CUDAENV_AUDIT_ABI_H
#define CUDAENV_AUDIT_ABI_H

/* The variable that names the record file: "<fd>:<dev>:<ino>:<path>". */
#define CUDAENV_AUDIT_ENV "CUDAENV_TRACE_FD"
/* The longest record file path the library takes (with its NUL); tracing
 * puts the records folder elsewhere rather than use a longer one. */
#define CUDAENV_AUDIT_PATH_MAX 4096

#endif
