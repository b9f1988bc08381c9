// Test-only: stands in for one of cuDNN's sub-libraries (libcudnn_ops.so.9, ...).
extern "C" int fake_cudnn_sublibrary() { return 1; }
