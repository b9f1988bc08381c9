/* Test-only stand-in for a Python extension module built against cuDNN
 * (CuPy's cuDNN module, dlib, an extension of torch.utils.cpp_extension):
 * a DLL named .pyd whose import table names cudnn64_8.dll. */
#include <stddef.h>

size_t cudnnGetVersion(void);

__declspec(dllexport) size_t cudaext_cudnn_version(void) { return cudnnGetVersion(); }
