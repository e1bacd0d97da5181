#pragma once
// Pipeline parallelism with rematerialisation (GPipe: Huang et al., NeurIPS 2019). A chain is cut into K contiguous
// stages, stage k on device k; the devices stand in a line, device k joined to device k + 1 by a link. The
// mini-batch the chain describes is split into M micro-batches, each 1/M of it: a micro-batch's step takes 1/M of the
// step's time and holds 1/M of its bytes (rounded up), which is optimistic for small micro-batches. Every device runs
// the forwards of micro-batches 1..M, sending each stage output over its link; once a device has all its forwards
// done and a gradient arrives, it runs the backwards of micro-batches M..1, sending each input gradient back. With
// rematerialisation (GPipe's default) a device keeps only its stage input of each micro-batch during the forward, and
// a backward first re-runs the stage's forward with tapes; without it, the forward records the tapes and keeps them.
//
// The timeline has a lane per device and per link ("device 0", "link 0-1", "device 1", ...; Interval.index is the
// micro-batch, 1-based; a link's forward activation is drawn as a write and a gradient as a read) and a memory curve
// per device (Timeline.memory[k]). What a device holds:
//   - the stage input of each micro-batch (State), from the start of the transfer that brings it (device 0: from time
//     0) until its backward ends (its forward ends, without rematerialisation);
//   - while a forward runs, its output and the intermediate states and forward temporaries (State), the largest over
//     the stage's steps of (x_{i-1} unless i is the first step) + x_i + forward temporaries; the output is the next
//     device's from the start of its transfer;
//   - the stage's tapes (Tape): from the start of the backward's re-run to its end (from the forward's start to the
//     backward's end without rematerialisation);
//   - the gradient of the stage output (Gradient), from the start of its transfer (the last device: from its backward's
//     start) to the end of the backward, and while a backward runs the largest over its steps of x_{i-1} + x_i (but x_i
//     of the last step, counted above) + the larger of its temporaries (Gradient).
// A transfer of b bytes takes latency + b / bandwidth on its link, one at a time.
#include "model/chain.h"
#include "sim/timeline.h"
#include "util/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ckpt {

struct PipelineSetup {
    int stages = 2;                         // K: devices
    int micro_batches = 4;                  // M
    std::vector<std::int64_t> device_bytes; // capacity per device (one value: every device); empty or 0: unbounded
    double link_bytes_per_s = 0;            // 0: transfers take no time
    double link_latency_s = 0;
    bool recompute = true; // GPipe's rematerialisation
    std::vector<int> cuts; // the last step of each stage but the last (K - 1 increasing values); empty: chosen
};

struct PipelineStage {
    int first = 1, last = 1;         // steps, 1-based
    double forward_s = 0;            // one micro-batch's forward
    double backward_s = 0;           // one micro-batch's backward, its re-run included
    std::int64_t bound_bytes = 0;    // what the device may hold at most (memoryBound)
    std::int64_t capacity_bytes = 0; // 0: unbounded
};

struct PipelineRun {
    std::vector<PipelineStage> stages;
    Timeline timeline;
    double bottleneck_s = 0;  // the slowest stage's or link's time per micro-batch (what the cuts minimise)
    double bubble = 0;        // idle share of the devices: 1 - (their busy time) / (K * makespan)
    double ideal_bubble = 0;  // (K - 1) / (M + K - 1), GPipe's bubble for equal stages and free links
    bool cuts_chosen = false; // the cuts came from balancedCuts
};

// The bytes device `device` may hold at most for the stage of steps first..last: M stage inputs, plus the larger of
// the forward's working set and (M output gradients + the backward's working set, the tapes among it). An upper bound
// on the simulated peak, whatever the timing.
std::int64_t pipelineMemoryBound(const Chain& chain, const PipelineSetup& setup, int first, int last);
// One micro-batch's forward time, and backward time (its re-run included), of steps first..last.
double stageForwardSeconds(const Chain& chain, const PipelineSetup& setup, int first, int last);
double stageBackwardSeconds(const Chain& chain, const PipelineSetup& setup, int first, int last);
// A link's time per micro-batch: the activation out and the gradient back (both cross it).
double linkSeconds(const Chain& chain, const PipelineSetup& setup, int lastOfStage);

// The cuts (K - 1 step indices) that minimise the bottleneck, max over stages of forward + backward per micro-batch
// and over links of linkSeconds, among those whose every stage's memory bound fits its device; O(K n^2). Ties go to
// the earliest cuts. An error says why none fits (the smallest capacity that would, for equal devices) or why the
// setup is wrong (K < 1, K > n, M < 1, a negative size).
Result<std::vector<int>> balancedCuts(const Chain& chain, const PipelineSetup& setup);

// Runs the pipeline: the given cuts (checked) or balancedCuts. The run's timeline is the simulation described above;
// a device over its capacity is an error naming the device, the micro-batch and the time.
Result<PipelineRun> runPipeline(const Chain& chain, const PipelineSetup& setup);

} // namespace ckpt
