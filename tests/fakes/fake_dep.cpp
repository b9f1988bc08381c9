// Test-only: a dependency that the tests delete, so loading the library that
// needs it fails with the loader's own message.
extern "C" int fake_cudnn_dependency() { return 1; }
