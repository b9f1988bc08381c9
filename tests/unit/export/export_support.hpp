#pragma once
// A pair's variables as the export tests draw them (export/cdi, export/formats,
// export/msbuild), before their edits: its toolkit and, unless `cudnn_path` is
// empty, its cuDNN, built for the toolkit's major; spec "<cuda>+<cudnn>" or "+none".
#include <string>

#include "core/version.hpp"
#include "export/formats.hpp"

namespace testsupport {

inline cudaenv::exporting::PairVars pair_vars(const std::string& cuda_root, const std::string& cuda_version,
                                               const std::string& cudnn_path = {},
                                               const std::string& cudnn_version = {}) {
    cudaenv::exporting::PairVars p;
    p.pair.toolkit.path = cuda_root;
    p.pair.toolkit.version = *cudaenv::Version::parse(cuda_version);
    p.cuda_root = cuda_root;
    p.cuda_version = cuda_version;
    if (!cudnn_path.empty()) {
        cudaenv::CudnnRecord c;
        c.path = cudnn_path;
        c.version = *cudaenv::Version::parse(cudnn_version);
        c.cuda_major = p.pair.toolkit.version.major();
        p.pair.cudnn = c;
        p.cudnn_version = cudnn_version;
    }
    p.spec = cuda_version + "+" + (cudnn_path.empty() ? "none" : cudnn_version);
    return p;
}

}  // namespace testsupport
