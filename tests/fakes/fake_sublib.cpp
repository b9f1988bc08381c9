// Test-only: stands in for one of cuDNN's sub-libraries (libcudnn_ops.so.9, ...).
#ifdef FAKE_USE_DEP
extern "C" int fake_cudnn_dependency();  // from libfakecudnndep.so, which the tests delete
extern "C" int fake_cudnn_sublibrary() { return fake_cudnn_dependency(); }
#else
extern "C" int fake_cudnn_sublibrary() { return 1; }
#endif
