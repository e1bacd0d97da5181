#pragma once
// What a newly opened problem starts with: a scheduler and a budget at which its first plan recomputes.
#include "io/project_io.h"
#include "model/chain.h"
#include "model/graph.h"
#include "model/hardware.h"

// A graph: the first fast graph scheduler that trades memory for time, at the tightest of a few fractions of
// store-all's peak it meets; store-all without a budget when none can.
ckpt::ProjectSettings graphStartSettings(const ckpt::Graph& graph, const ckpt::Hardware& hw);
// A chain: the window's current settings with a budget for this chain.
ckpt::ProjectSettings chainStartSettings(const ckpt::Chain& chain, const ckpt::ProjectSettings& current,
                                         const ckpt::Hardware& hw);
