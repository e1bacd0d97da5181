#pragma once
#include "io/onnx_import.h"

#include <string>

namespace ckpt::cli {
// A shipped network as `ckpt bench` imports it (cli/bench_graphs.cpp): --batch fills an open first dimension, and an
// input with another open one (a sequence) gets `seq` there.
Result<OnnxImport> importForBench(const std::string& file, std::int64_t batch, int seq);
} // namespace ckpt::cli
