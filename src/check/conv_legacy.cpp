#include "check/conv_legacy.hpp"

#include <algorithm>

#include "check/names.hpp"

namespace cudaenv::check {

namespace {

const char* algo_name(int a) {
    static const char* names[] = {"IMPLICIT_GEMM", "IMPLICIT_PRECOMP_GEMM", "GEMM",     "DIRECT",
                                  "FFT",           "FFT_TILING",            "WINOGRAD", "WINOGRAD_NONFUSED"};
    return a >= 0 && a < 8 ? names[a] : "unknown";
}

const char* math_name(int m) {
    static const char* names[] = {"DEFAULT_MATH", "TENSOR_OP_MATH", "TENSOR_OP_MATH_ALLOW_CONVERSION", "FMA_MATH"};
    return m >= 0 && m < 4 ? names[m] : "unknown";
}

}  // namespace

LegacyConv::LegacyConv(const CudaFns& cuda, const CudnnFns& cudnn, int cudnn_major)
    : cuda_(cuda), cudnn_(cudnn), major_(cudnn_major), memory_(cuda) {
    check("cudnnCreate", cudnn_.create(&handle_));
}

LegacyConv::~LegacyConv() {
    if (xd_) cudnn_.destroy_tensor(xd_);
    if (yd_) cudnn_.destroy_tensor(yd_);
    if (wd_) cudnn_.destroy_filter(wd_);
    if (conv_) cudnn_.destroy_conv(conv_);
    if (handle_) cudnn_.destroy(handle_);
}

void LegacyConv::build(const ConvShape& sh, bool half, void* x, void* w, void* y) {
    x_ = x, w_ = w, y_ = y;
    const int dtype = half ? cudnn_api::CUDNN_DATA_HALF : cudnn_api::CUDNN_DATA_FLOAT;
    const int oh = sh.out_h(), ow = sh.out_w();
    check("cudnnCreateTensorDescriptor", cudnn_.create_tensor(&xd_));
    check("cudnnCreateTensorDescriptor", cudnn_.create_tensor(&yd_));
    check("cudnnCreateFilterDescriptor", cudnn_.create_filter(&wd_));
    check("cudnnCreateConvolutionDescriptor", cudnn_.create_conv(&conv_));
    check("cudnnSetTensor4dDescriptor", cudnn_.set_tensor4d(xd_, cudnn_api::CUDNN_TENSOR_NCHW, dtype, sh.n, sh.c, sh.h, sh.w));
    check("cudnnSetFilter4dDescriptor", cudnn_.set_filter4d(wd_, dtype, cudnn_api::CUDNN_TENSOR_NCHW, sh.k, sh.c, sh.r, sh.s));
    // fp16 data accumulates in fp32, as the frameworks do.
    check("cudnnSetConvolution2dDescriptor",
          cudnn_.set_conv2d(conv_, sh.pad, sh.pad, 1, 1, 1, 1, cudnn_api::CUDNN_CROSS_CORRELATION, cudnn_api::CUDNN_DATA_FLOAT));
    // fp32: default math, which lets cuDNN use TF32 tensor cores on Ampere and
    // newer (PyTorch's default, allow_tf32 = True); fp16: tensor-op math.
    check("cudnnSetConvolutionMathType",
          cudnn_.set_math_type(conv_, half ? cudnn_api::CUDNN_TENSOR_OP_MATH : cudnn_api::CUDNN_DEFAULT_MATH));
    int on = 0, oc = 0, ohh = 0, oww = 0;
    check("cudnnGetConvolution2dForwardOutputDim", cudnn_.output_dim(conv_, xd_, wd_, &on, &oc, &ohh, &oww));
    if (on != sh.n || oc != sh.k || ohh != oh || oww != ow)
        throw ConvFailure{"cuDNN computed a wrong output shape " + std::to_string(on) + "x" + std::to_string(oc) + "x" +
                              std::to_string(ohh) + "x" + std::to_string(oww),
                          "The cuDNN library is damaged or mismatched: reinstall this cuDNN.",
                          {}};
    check("cudnnSetTensor4dDescriptor", cudnn_.set_tensor4d(yd_, cudnn_api::CUDNN_TENSOR_NCHW, dtype, sh.n, sh.k, oh, ow));
    math_requested_ = half ? cudnn_api::CUDNN_TENSOR_OP_MATH : cudnn_api::CUDNN_DEFAULT_MATH;
}

void LegacyConv::tune() {
    // Let cuDNN time every algorithm and take the fastest that works.
    tried_ = nlohmann::json::array();
    check("cudnnSetConvolutionMathType", cudnn_.set_math_type(conv_, math_requested_));
    cudnn_api::ConvolutionFwdAlgoPerf perf[cudnn_api::CUDNN_CONVOLUTION_FWD_ALGO_COUNT]{};
    int returned = 0;
    check("cudnnFindConvolutionForwardAlgorithm",
          cudnn_.find_fwd(handle_, xd_, wd_, conv_, yd_, cudnn_api::CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned, perf));
    const cudnn_api::ConvolutionFwdAlgoPerf* best = nullptr;
    for (int i = 0; i < std::min(returned, cudnn_api::CUDNN_CONVOLUTION_FWD_ALGO_COUNT); ++i) {
        tried_.push_back({{"algo", algo_name(perf[i].algo)},
                          {"status", cudnn_status_name(major_, perf[i].status)},
                          {"ms", perf[i].time},
                          {"math", math_name(perf[i].mathType)}});
        if (!best && perf[i].status == 0) best = &perf[i];
    }
    if (!best)
        throw ConvFailure{"no convolution algorithm works on this GPU (" + std::to_string(returned) + " tried)",
                          "This cuDNN cannot run a standard convolution here: use a cuDNN release that supports this GPU.",
                          {{"algorithms", tried_}}};
    algo_ = best->algo;
    math_ = best->mathType;
    // Run with the math type Find measured the winner with (as the frameworks do).
    check("cudnnSetConvolutionMathType", cudnn_.set_math_type(conv_, math_));
    check("cudnnGetConvolutionForwardWorkspaceSize",
          cudnn_.workspace_size(handle_, xd_, wd_, conv_, yd_, algo_, &ws_bytes_));
    if (ws_bytes_ > ws_capacity_) {  // tuned again: the earlier workspace is kept if it is big enough
        ws_ = memory_.alloc(ws_bytes_);
        ws_capacity_ = ws_bytes_;
    }
}

bool LegacyConv::use(int algo, int math) {
    if (algo < 0 || algo >= cudnn_api::CUDNN_CONVOLUTION_FWD_ALGO_COUNT) return false;
    std::size_t bytes = 0;
    if (cudnn_.set_math_type(conv_, math) != 0 || cudnn_.workspace_size(handle_, xd_, wd_, conv_, yd_, algo, &bytes) != 0)
        return false;
    algo_ = algo;
    math_ = math;
    ws_bytes_ = bytes;
    if (ws_bytes_ > ws_capacity_) {
        ws_ = memory_.alloc(ws_bytes_);
        ws_capacity_ = ws_bytes_;
    }
    tried_ = nlohmann::json::array({{{"algo", algo_name(algo)}, {"math", math_name(math)}, {"kept", true}}});
    return true;
}

void LegacyConv::forward() {
    const float alpha = 1.0f, beta = 0.0f;
    check("cudnnConvolutionForward",
          cudnn_.forward(handle_, &alpha, xd_, x_, wd_, w_, conv_, algo_, ws_, ws_bytes_, &beta, yd_, y_));
}

std::string LegacyConv::label() const { return algo_name(algo_); }
std::string LegacyConv::math() const { return math_name(math_); }

}  // namespace cudaenv::check
