// Pins down why two vectors of ../shared/vectors-max78002-options are listed in
// testbench/conformance/expected_failures_max78002_options.txt as generator
// bugs: what their firmware does cannot give the known answer on any memory.
//
// 1. e87-mnist-extrasmall-mexpress: cnn_load_weights() writes each kernel
//    chunk at its memory-express address E (izer apbaccess.py: the instance
//    base plus the byte offset / 4, so one instance's offsets fill
//    instance_stride / 4 bytes), while cnn_verify_weights() reads it back at
//    (E & ~M) | (E & M) << 2 with M = MASK_OFFS - 1 = 0x1fff (izer kernels.py).
//    That mask is a quarter of the offsets' range: a kernel at column 2048 or
//    above is read back elsewhere. Its twin without --verify-kernels passes.
// 2. e87-fastfifostream-x4-cifar: cnn_load_weights() writes some kernel words
//    twice (the calcx4 kernels of a later layer and the quad fast-FIFO layer 0's
//    land on the same columns), so whichever comes second replaces the other.
//    Its twin with other kernel offsets writes every word once and passes.
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "app/run_options.h"
#include "testbench/unit/app/app_test_support.h"
#include "testbench/unit/test_support.h"
#include "tlm/device_config.h"
#include "build_paths.h"

namespace max78002_generator_bugs_test {

using namespace ai8x;
using namespace ai8x::test;
namespace fs = std::filesystem;

const fs::path kOptions = fs::path(AI8XSIM_SHARED_DIR) / "vectors-max78002-options";
const fs::path kVerifyKernels = kOptions / "e87-mnist-extrasmall-mexpress-a1ba40";
const fs::path kVerifyTwin = kOptions / "e87-mnist-extrasmall-de8492";
const fs::path kQuadCalcx4 = kOptions / "e87-fastfifostream-x4-cifar-283565";
const fs::path kQuadTwin = kOptions / "e87-fastfifostream-readahead-cifar-8d10af";

DeviceConfig max78002() { return load_device_config(AI8XSIM_SOURCE_DIR "/configs/max78002.yaml"); }

// One chunk of weights.h's memory-express KERNELS list: address, packed words.
struct Chunk {
    uint64_t address;
    uint32_t kernels;  // 9-byte kernels packed into the chunk's words
};

std::vector<Chunk> kernel_chunks(const fs::path& vector) {
    const std::string text = slurp(vector / "weights.h");
    const std::string list = text.substr(text.find("#define KERNELS"));
    std::vector<uint64_t> words;
    static const std::regex number("0x[0-9a-f]+");
    for (auto it = std::sregex_iterator(list.begin(), list.end(), number); it != std::sregex_iterator(); ++it)
        words.push_back(std::stoull(it->str(), nullptr, 16));
    std::vector<Chunk> chunks;
    for (std::size_t i = 0; i + 1 < words.size() && words[i] != 0; i += 2 + words[i + 1])
        chunks.push_back({words[i], static_cast<uint32_t>(words[i + 1] * 4 / 9)});
    return chunks;
}

// Where a memory-express address writes: the instance base plus four times the offset.
uint64_t kernel_address(uint64_t express, const ArrayGeometry& kernels) {
    const uint64_t offset = express & (kernels.instance_stride - 1);
    return express - offset + offset * 4;
}

// The mask cnn_verify_weights() in `cnn_c` applies before shifting by 2.
uint64_t verify_mask(const std::string& cnn_c) {
    std::smatch m;
    REQUIRE(std::regex_search(cnn_c, m, std::regex(R"(\(\(\(uint32_t\)addr & (0x[0-9a-f]+)\) << 2\))")));
    return std::stoull(m[1], nullptr, 16);
}

TEST_CASE("verify-kernels: the generator reads a kernel above column 2047 back at another address",
          "[run][max78002][generator-bug]") {
    const DeviceConfig cfg = max78002();
    const ArrayGeometry& kernels = cfg.kernel_mem;
    const uint64_t mask = verify_mask(slurp(kVerifyKernels / "cnn.c"));
    CHECK(mask == 0x1fff);
    // The memory-express offsets span a quarter of the instance: four times the mask's range.
    CHECK((kernels.instance_stride / 4 - 1) == 4 * mask + 3);

    const std::vector<Chunk> chunks = kernel_chunks(kVerifyKernels);
    REQUIRE(!chunks.empty());
    const uint64_t express = chunks.front().address;
    const uint64_t written = kernel_address(express, kernels);
    const uint64_t read_back = (express & ~mask) | (express & mask) << 2;
    const uint64_t column = (written - kernels.base) % kernels.instance_stride / kernels.slot_bytes;
    CHECK(written == 0x51413f80);
    CHECK(column == 5112);
    CHECK(column < kernels.words_by_instance.at(0));  // inside processor 0's larger memory
    CHECK(read_back == 0x51407f80);
    CHECK(read_back != written);

    const fs::path work = scratch("verify-kernels");
    RunOptions o = run_options_for(kVerifyKernels.string(), work);
    CHECK(run_command(o) == kRunFail);
    CHECK(contains(read_json(o.json_out)["console"].get<std::string>(),
                   "Addr[0]: 51407f80, read: 00000000, expected: 0000001f"));
    fs::remove_all(work);
}

TEST_CASE("verify-kernels: the same network without the read-back passes", "[run][max78002][generator-bug]") {
    const fs::path work = scratch("verify-kernels-twin");
    RunOptions o = run_options_for(kVerifyTwin.string(), work);
    CHECK(run_command(o) == kRunPass);
    fs::remove_all(work);
}

// Kernel memory words (by bus address) that cnn_load_weights() writes more than once.
std::map<uint64_t, int> rewritten_kernels(const fs::path& vector, const ArrayGeometry& kernels) {
    std::map<uint64_t, int> writes;
    for (const Chunk& c : kernel_chunks(vector)) {
        const uint64_t first = kernel_address(c.address, kernels);
        for (uint32_t k = 0; k < c.kernels; ++k) ++writes[first + uint64_t{k} * kernels.slot_bytes];
    }
    std::map<uint64_t, int> twice;
    for (const auto& [address, count] : writes)
        if (count > 1) twice[address] = count;
    return twice;
}

TEST_CASE("fast-fifo-quad with calcx4: the generator loads two kernels into the same columns",
          "[max78002][generator-bug]") {
    const ArrayGeometry& kernels = max78002().kernel_mem;
    const std::map<uint64_t, int> twice = rewritten_kernels(kQuadCalcx4, kernels);
    CHECK(!twice.empty());
    for (const auto& [address, count] : twice) {
        const uint64_t offset = address - kernels.base;
        const uint64_t processor = offset / kernels.quadrant_stride * kernels.instances_per_quadrant +
                                   offset % kernels.quadrant_stride / kernels.instance_stride;
        const uint64_t column = offset % kernels.instance_stride / kernels.slot_bytes;
        INFO("processor " << processor << " column " << column);
        CHECK(count == 2);
        CHECK(column >= 4);  // layer 0's kernels 4..6 of the quadrants' processors
        CHECK(column <= 6);
    }
    // The same layer 0 with the kernels elsewhere: every word written once.
    CHECK(rewritten_kernels(kQuadTwin, kernels).empty());
}

}  // namespace max78002_generator_bugs_test
