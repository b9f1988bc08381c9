#pragma once
// The convolution through cuDNN's legacy API, as older frameworks reach it:
// 4-d descriptors, the algorithm picked by cudnnFindConvolutionForwardAlgorithm
// (cuDNN times each of its eight), run with cudnnConvolutionForward. The
// handle it creates is shared with the graph path (conv_graph.hpp).
#include <cstddef>
#include <string>

#include "check/conv_support.hpp"

namespace cudaenv::check {

class LegacyConv {
public:
    // Creates the cuDNN handle; throws ConvFailure.
    LegacyConv(const CudaFns& cuda, const CudnnFns& cudnn, int cudnn_major);
    LegacyConv(const LegacyConv&) = delete;
    LegacyConv& operator=(const LegacyConv&) = delete;
    ~LegacyConv();

    cudnn_api::cudnnHandle_t handle() const { return handle_; }

    // The descriptors; throws ConvFailure when a call fails.
    void build(const ConvShape& shape, bool half, void* x, void* w, void* y);
    // The fastest working algorithm (cudnnFindConvolutionForwardAlgorithm)
    // and its workspace; run again after a warm-up to choose on a quiet GPU.
    // Throws ConvFailure when a call fails or no algorithm works.
    void tune();
    // Takes algorithm `algo` with math type `math` without timing the others
    // (the choice an earlier check kept); false when this cuDNN refuses it.
    bool use(int algo, int math);
    // cudnnConvolutionForward with the chosen algorithm; throws ConvFailure.
    void forward();

    std::string label() const;  // "IMPLICIT_PRECOMP_GEMM"
    std::string math() const;   // "TENSOR_OP_MATH"
    int math_type() const { return math_; }
    int algo() const { return algo_; }
    std::size_t workspace_bytes() const { return ws_bytes_; }
    const nlohmann::json& candidates_json() const { return tried_; }

private:
    void check(const char* call, int status) { cudnn_check(cudnn_, major_, call, status); }

    const CudaFns& cuda_;
    const CudnnFns& cudnn_;
    int major_;
    DeviceMemory memory_;
    cudnn_api::cudnnHandle_t handle_ = nullptr;
    cudnn_api::cudnnTensorDescriptor_t xd_ = nullptr, yd_ = nullptr;
    cudnn_api::cudnnFilterDescriptor_t wd_ = nullptr;
    cudnn_api::cudnnConvolutionDescriptor_t conv_ = nullptr;
    void *x_ = nullptr, *w_ = nullptr, *y_ = nullptr, *ws_ = nullptr;
    int algo_ = -1, math_ = 0, math_requested_ = 0;
    std::size_t ws_bytes_ = 0, ws_capacity_ = 0;
    nlohmann::json tried_ = nlohmann::json::array();
};

}  // namespace cudaenv::check
