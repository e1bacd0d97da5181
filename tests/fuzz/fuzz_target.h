#pragma once
// Shared by the in-process fuzz targets (one per loader, fuzz_*.cpp). Each defines LLVMFuzzerTestOneInput: libFuzzer
// calls it when the build has CKPT_FUZZ=ON, and replay_main.cpp feeds it the checked-in corpus in every other build.
// A target only returns normally or dies: a loader's error is fine, but a crash, an uncaught exception, a sanitizer
// report or a broken invariant (check()) is a finding, and the replay test fails on it.
#include "io/json_io.h"
#include "model/graph.h"
#include "sim/timeline.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace ckpt::fuzz {

// The name every target gives its input, so that messages can be checked to name it.
inline const std::string kSource = "fuzz-input.json";

// Aborts with `what` when `ok` is false: an invariant of the program that an input broke.
void check(bool ok, const std::string& what);
// A refused input must say where: the message starts with the source's name.
void checkError(const std::string& message, const std::string& source = kSource);

inline std::string text(const std::uint8_t* data, std::size_t size) {
    return std::string(reinterpret_cast<const char*>(data), size);
}

// A document that would make a loader allocate more than a fuzzer's memory limit by design (a "uniform" chain of
// millions of steps is inside the documented limit): skipped, since the size caps are judged elsewhere.
bool tooLargeByDesign(const nlohmann::json& doc);

// The input parsed and loaded by `load` (a JSON document to a Result), or nothing when either refused it, after
// checking the refusal names the input. `skipTooLarge`: also nothing for documents tooLargeByDesign.
template <typename Load>
auto loadInput(const std::uint8_t* data, std::size_t size, Load load, bool skipTooLarge = false)
    -> std::optional<std::decay_t<decltype(*load(std::declval<const nlohmann::json&>()))>> {
    auto doc = parseJson(text(data, size), kSource);
    if (!doc) {
        checkError(doc.error());
        return std::nullopt;
    }
    if (skipTooLarge && tooLargeByDesign(*doc)) return std::nullopt;
    auto loaded = load(*doc);
    if (!loaded) {
        checkError(loaded.error());
        return std::nullopt;
    }
    return std::move(*loaded);
}

// What a loaded file saves as (`saved`) must parse and load again (`load` reads a JSON document); returns what it
// loaded, for the target to compare with the original.
template <typename Load> auto readBack(const nlohmann::json& saved, const std::string& what, Load load) {
    auto back = parseJson(jsonToText(saved), "saved");
    check(back.ok(), "a saved " + what + " does not parse: " + (back ? std::string() : back.error()));
    auto again = load(*back);
    check(again.ok(), "a saved " + what + " does not load: " + (again ? std::string() : again.error()));
    return std::move(*again);
}

// Small fixed problems that plans and hardware files are tried against.
Chain fixedChain();       // 6 unequal steps
Hardware fixedHardware(); // 3 levels: a bounded level 0, a host level and a disk level
Graph fixedGraph();       // 6 nodes "a".."f": a diamond, a skip edge and a reversible node

// Checks what every successful simulation must give: a finite makespan no shorter than the compute it contains, and
// non-negative peaks.
void checkTimeline(const Timeline& tl, double minimumCompute, const std::string& what);

} // namespace ckpt::fuzz
