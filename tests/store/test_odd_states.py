"""Odd store states and hostile config files, through the real binary: each
gets one `cudaenv: error:` line naming the path (and a hint), a non-zero
exit and no crash, and nothing on disk changes."""
import os
import shlex
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import storetest  # noqa: E402


class OddStatesTest(unittest.TestCase):
    def setUp(self):
        self.s = storetest.Store("odd")
        os.makedirs(self.s.root)
        self.config = os.path.join(self.s.root, "config.toml")

    def tearDown(self):
        self.s.cleanup()

    def fails_clearly(self, args, *words, **kw):
        rc, out, err = self.s.run(*args, **kw)
        self.assertGreater(rc, 0, "exit %d (a signal is negative); stderr: %s" % (rc, err[-2000:]))
        lines = err.splitlines()
        self.assertTrue(lines and lines[0].startswith("cudaenv: error: "), err[-2000:])
        self.assertLessEqual(len(lines), 2, err[-2000:])  # the error and at most a hint
        for w in words:
            self.assertIn(w, lines[0])
        return lines

    def test_config_over_16_mib(self):
        with open(self.config, "wb") as f:
            f.write(b"#" * ((16 << 20) + 1))
        lines = self.fails_clearly(["list"], self.config, "larger than 16 MiB")
        self.assertTrue(lines[1].startswith("hint: "))

    def test_config_link_loops(self):
        os.symlink("config.toml", self.config)
        self.fails_clearly(["list"], self.config, "symbolic link that loops")
        self.fails_clearly(["global"], self.config, "symbolic link that loops")

    def test_config_is_a_folder(self):
        os.makedirs(self.config)
        self.fails_clearly(["global", "--unset"], self.config, "not a regular file")
        self.assertTrue(os.path.isdir(self.config))

    def test_root_is_a_file(self):
        os.rmdir(self.s.root)
        storetest.write(self.s.root, "mine\n")
        for args in (["list"], ["global"], ["global", "--unset"], ["pair"]):
            self.fails_clearly(args, self.s.root, "is a file, not a folder")
        with open(self.s.root) as f:
            self.assertEqual(f.read(), "mine\n")

    def test_home_unset(self):
        env = self.s.env()
        for k in ("HOME", "CUDAENV_ROOT", "XDG_DATA_HOME"):
            env.pop(k, None)
        p = subprocess.run([storetest.EXE, "list"], env=env, cwd=self.s.tmp, capture_output=True, text=True)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("HOME is not set", p.stderr)
        self.assertIn("CUDAENV_ROOT", p.stderr)
        self.assertFalse(os.path.exists("/.local/share/cudaenv"))

    def test_local_unset_keeps_a_folder(self):
        work = os.path.join(self.s.tmp, "work")
        os.makedirs(os.path.join(work, ".cudaenv"))
        self.fails_clearly(["local", "--unset"], os.path.join(work, ".cudaenv"), "is a folder", cwd=work)
        self.assertTrue(os.path.isdir(os.path.join(work, ".cudaenv")))

    def test_hostile_config_never_crashes(self):
        # 400,000 dotted parts segfaulted the release build; 20,000 overflowed
        # the stack in the sanitizer build; "[[[x" reached a toml++ assertion.
        for text in ("a." * 399999 + "a = 1\n", "a." * 19999 + "a = 1\n", "[[[x", "[=\n",
                     "a = " + "[" * 100000, "x = {" * 10000):
            with open(self.config, "w") as f:
                f.write(text)
            self.fails_clearly(["list"], self.config + ":")
            with open(self.config) as f:
                self.assertEqual(f.read(), text)  # never rewritten

    def test_add_of_a_folder_name_that_is_not_utf8(self):
        # config.toml holds UTF-8 only: the name would be written as other
        # characters (U+00FF for the byte 0xFF) naming a folder that does not exist.
        d = os.path.join(self.s.tmp, os.fsdecode(b"cuda-\xff"))
        storetest.make_toolkit(d, "12.4")
        lines = self.fails_clearly(["add", d], "is not UTF-8", "config.toml cannot hold")
        self.assertTrue(lines[1].startswith("hint: rename the folder"), lines)
        self.assertFalse(os.path.exists(self.config))

    def test_a_setting_below_pins_is_read_with_a_warning(self):
        # Issue 40 D11: `echo 'mirror = ...' >> config.toml`, as the old docs
        # said, lands in [pins]. Read as the setting with a warning naming the
        # line: never a reason for `use` or the prompt hook to fail.
        tk = storetest.make_toolkit(os.path.join(self.s.tmp, "cuda-12.4"), "12.4")
        text = ('[pins]\n"12.4.0" = "9.1.0"\nmirror = "/media/usb/cudaenv-mirror"\n\n'
                '[[toolkit]]\npath = "%s"\nversion = "12.4.0"\n' % tk)
        storetest.write(self.config, text)
        warning = "cudaenv: warning: %s:3: `mirror` is below [pins]" % self.config
        rc, out, err = self.s.run("list")
        self.assertEqual(rc, 0, err)
        self.assertIn(warning, err)  # said wherever config.toml is read (a kept activation reads none)
        for args, kw in ((["env", "12.4", "--shell", "bash"], {}), (["use", "12.4"], {"CUDAENV_SHELL": "bash"})):
            rc, out, err = self.s.run(*args, **kw)
            self.assertEqual(rc, 0, "%s: %s" % (args, err))
            self.assertIn("export CUDA_PATH='%s'" % tk, out)
        # The prompt hook of a real bash switches to the project's pair.
        proj = os.path.join(self.s.tmp, "proj")
        storetest.write(os.path.join(proj, ".cudaenv"), "12.4\n")
        script = 'eval "$(%s init bash)"; cd %s; __cudaenv_hook; printf "%%s" "$CUDA_PATH"' % (
            shlex.quote(storetest.EXE), shlex.quote(proj))
        p = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], env=self.s.env(), cwd=self.s.tmp,
                           capture_output=True, text=True, timeout=60)
        self.assertEqual((p.returncode, p.stdout), (0, tk), p.stderr)
        with open(self.config) as f:
            self.assertEqual(f.read(), text)  # reading changes nothing
        # The next write of config.toml puts it on top, as a setting.
        rc, _, err = self.s.run("global", "12.4")
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.s.config()["mirror"], "/media/usb/cudaenv-mirror")
        rc, _, err = self.s.run("list")
        self.assertNotIn("warning", err)

    def test_fifo_config_does_not_hang(self):
        os.mkfifo(self.config)
        self.fails_clearly(["list"], self.config, "not a regular file")


if __name__ == "__main__":
    unittest.main()
