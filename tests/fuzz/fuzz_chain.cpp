// Chain files (chainFromJson). A chain that loads must save and read back equal, and a small one goes through
// store-all and the simulator, whose totals must be finite, hold every tape at once and peak where store-all's formula
// says (in either memory model). The reader of files (chainFromText: the steps read while the text is parsed) must
// agree with the tree's reader: the same chain, or the same message.
#include "fuzz_target.h"
#include "schedulers/store_all.h"
#include "sim/simulator.h"

using namespace ckpt;
using namespace ckpt::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string input = text(data, size);
    if (auto doc = parseJson(input, kSource); !doc ? !doc.errorValue().too_large : !tooLargeByDesign(*doc)) {
        auto tree = doc ? chainFromJson(*doc, kSource) : Result<Chain>(doc.errorValue());
        auto streamed = chainFromText(input, kSource);
        check(tree.ok() == streamed.ok(),
              "the tree's reader and the streaming one disagree: " + (tree ? std::string("read") : tree.error()) +
                  " / " + (streamed ? std::string("read") : streamed.error()));
        check(tree ? *tree == *streamed : tree.error() == streamed.error(),
              "the tree's reader and the streaming one differ: " + (tree ? std::string("chains") : tree.error()) +
                  " / " + (streamed ? std::string("chain") : streamed.error()));
    }
    auto chain = loadInput(
        data, size, [](const auto& doc) { return chainFromJson(doc, kSource); }, true);
    if (!chain) return 0;

    const auto again = readBack(chainToJson(*chain), "chain", [](const auto& j) { return chainFromJson(j, "saved"); });
    check(again == *chain, "a chain does not read back equal");

    if (chain->length() > 256) return 0;
    auto tl = simulate(*chain, Hardware::unbounded(), storeAllPlan(*chain).actions);
    // Refusing a chain whose sums cannot be represented is right.
    if (!tl) return 0;
    checkTimeline(*tl, chain->totalForward() + chain->totalBackward(), "store-all");
    // After the last forward every tape is held: a peak below their sum means a sum overflowed.
    long double tapes = 0;
    for (const Step& s : chain->steps())
        tapes += static_cast<long double>(s.tape_bytes);
    check(static_cast<long double>(tl->totals.peak_bytes.at(0)) >= tapes,
          "store-all's peak " + std::to_string(tl->totals.peak_bytes.at(0)) + " is below the sum of the tapes");
    // The closed form schedulers trust (in either memory model) is what the simulator measures.
    check(tl->totals.peak_bytes.at(0) == storeAllPeakBytes(*chain),
          "store-all's simulated peak " + std::to_string(tl->totals.peak_bytes.at(0)) + " differs from its formula's " +
              std::to_string(storeAllPeakBytes(*chain)));
    return 0;
}
