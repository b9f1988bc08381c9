#!/usr/bin/env python3
"""HTTP mirror for the install tests: serves a folder on 127.0.0.1 only, with
directory listings (like NVIDIA's), byte ranges (for resume), a request log,
and optional faults: --truncate NAME sends only half of that file once;
--rate BYTES sends every file at that many bytes a second (so a test can kill
a client while its downloads run); --no-ranges answers every request with the
whole file and 200, as `python3 -m http.server` does; --endless-listing BYTES
sends every directory listing as a page that never ends, at that many bytes a
second (a trickle above libcurl's low-speed limit)."""
import argparse
import http.server
import os
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--truncate", default="")
    ap.add_argument("--rate", type=int, default=0)
    ap.add_argument("--no-ranges", action="store_true")
    ap.add_argument("--endless-listing", type=int, default=0)
    args = ap.parse_args()
    state = {"truncated": False}

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **kw):
            super().__init__(*a, directory=args.root, **kw)

        def log_message(self, fmt, *a):
            pass

        def do_GET(self):
            with open(args.log, "a") as log:
                log.write(f"GET {self.path} range={self.headers.get('Range', '-')} t={time.monotonic():.3f}\n")
            self.ended = False
            try:
                self.serve()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client went away (a test killed it)
            finally:
                self.end()

        def end(self):
            """Logs END once, before the last bytes go out: the client cannot start
            its next request before this line is written."""
            if not self.ended:
                self.ended = True
                with open(args.log, "a") as log:
                    log.write(f"END {self.path} t={time.monotonic():.3f}\n")

        def serve(self):
            path = self.translate_path(self.path)
            if os.path.isdir(path) and args.endless_listing:
                return self.endless()
            if os.path.isdir(path) or not os.path.isfile(path):
                return super().do_GET()
            data = open(path, "rb").read()
            start = 0
            rng = None if args.no_ranges else self.headers.get("Range")
            if rng and rng.startswith("bytes=") and rng.endswith("-"):
                start = int(rng[6:-1])
                if start >= len(data):
                    self.send_response(416)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(206)
                self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
            else:
                self.send_response(200)
            body = data[start:]
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Content-Type", "application/octet-stream")
            self.end_headers()
            if args.truncate and args.truncate in self.path and not state["truncated"]:
                state["truncated"] = True
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                self.close_connection = True
                return
            step = max(1, args.rate // 20) if args.rate else max(1, len(body))
            for at in range(0, len(body), step):
                if at + step >= len(body):
                    self.end()
                self.wfile.write(body[at:at + step])
                self.wfile.flush()
                if at + step < len(body):
                    time.sleep(0.05)

        def endless(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            line = b'<a href="redistrib_12.6.3.json">redistrib_12.6.3.json</a>\n'
            step = max(1, args.endless_listing // 20)
            data = line * (step // len(line) + 1)
            while True:
                self.wfile.write(data[:step])
                self.wfile.flush()
                time.sleep(0.05)

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    os.replace(args.port_file + ".tmp", args.port_file)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


class HttpServer:
    """This server in a process of its own, for a test: its URL once it listens, the requests it logged."""

    def __init__(self, root, tmp, truncate="", rate=0, no_ranges=False, endless_listing=0):
        self.port_file = os.path.join(tmp, f"port-{time.time_ns()}")
        self.log = os.path.join(tmp, f"http-{time.time_ns()}.log")
        args = [sys.executable, os.path.abspath(__file__), "--root", root, "--port-file", self.port_file,
                "--log", self.log]
        if truncate:
            args += ["--truncate", truncate]
        if rate:
            args += ["--rate", str(rate)]
        if no_ranges:
            args += ["--no-ranges"]
        if endless_listing:
            args += ["--endless-listing", str(endless_listing)]
        self.proc = subprocess.Popen(args)
        for _ in range(500):
            if os.path.exists(self.port_file):
                break
            time.sleep(0.02)
        self.url = f"http://127.0.0.1:{open(self.port_file).read()}"

    def requests(self):
        return open(self.log).read() if os.path.exists(self.log) else ""

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
