// Builds generated firmware (a generator output folder) together with the
// board-support shim and startup code into an ELF for the virtual board.
// Results are cached outside the folder, keyed by a hash of every input, so
// a folder is compiled once until a source, the shim or a flag changes.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tlm/device_config.h"

namespace ai8x {

// Compilation or link failed; what() is a summary, compiler_output the tool's text.
struct BuildError : std::runtime_error {
    BuildError(const std::string& what, std::string output)
        : std::runtime_error(what), compiler_output(std::move(output)) {}
    std::string compiler_output;
};

// What the images are built from. A folder of the vendor's generator is
// of_folder(dir); another kind of folder (app/folder_kind.h) names its own
// sources and header folders, and gets the same cache, shim, link and
// memory-enlarging steps.
struct FirmwareSources {
    std::string dir;                 // the folder: on the include path, names the cache entry and messages
    std::vector<std::string> arm;    // C sources of the Cortex-M4 image
    std::vector<std::string> riscv;  // C sources of the RISC-V image; empty: a single-core image
    // Header folders searched after `dir` and before the shim's (a testbench
    // environment, say); every file below them is part of the cache key.
    std::vector<std::string> include_dirs;
    // Compiler flags of the folder's own sources, after the builder's (a later
    // -O wins): the Arm's and the RISC-V core's.
    std::vector<std::string> arm_flags, riscv_flags;
    // Where the RISC-V image goes when the folder fixes it (an RTL-simulation
    // folder's linker script): its flash (from the boot address) and SRAM.
    // The Arm image then keeps the flash and SRAM below them. Unset: the
    // RISC-V image lies behind the Arm image (__FlashStart_), in the device's
    // riscv.sram.
    struct Region {
        uint64_t base = 0, size = 0;
    };
    std::optional<Region> riscv_flash, riscv_sram;

    // Every C file of `dir`: in a dual-core folder (one with main_riscv.c)
    // main.c is the Arm's and the rest the RISC-V core's.
    static FirmwareSources of_folder(const std::string& dir);
};

struct FirmwareBuild {
    std::string elf_path;
    // RISC-V image of a dual-core folder (main_riscv.c present), else empty.
    // It lies in flash at the Arm image's __FlashStart_ (docs/riscv.md).
    std::string riscv_elf_path;
    uint64_t flash_size = 0;  // flash/SRAM sizes the image was linked for; larger than the
    uint64_t sram_size = 0;   // device description's when the sample data needs it
    bool memory_enlarged = false;
    bool from_cache = false;
};

class FirmwareBuilder {
public:
    // `cache_root` empty = default_firmware_cache_root() (firmware_cache_root.h).
    FirmwareBuilder(const DeviceConfig& cfg, std::string cache_root = {});

    // C sources of `dir` that belong to the Arm firmware (sorted). In a
    // dual-core folder (one with main_riscv.c) that is main.c alone: the
    // RISC-V core runs everything else.
    static std::vector<std::string> firmware_sources(const std::string& dir);
    // C sources of the RISC-V image (sorted; empty unless main_riscv.c exists).
    static std::vector<std::string> riscv_sources(const std::string& dir);

    // Throws BuildError (compiler output attached) or std::runtime_error (I/O).
    FirmwareBuild build(const std::string& dir) { return build(FirmwareSources::of_folder(dir)); }
    FirmwareBuild build(const FirmwareSources& sources);

private:
    struct Job;  // one build in progress (firmware_builder.cpp)
    // The cache entry of `job` when it is complete, else nothing.
    std::optional<FirmwareBuild> cached(const Job& job) const;
    // Compiles and links into the cache entry; the temporaries are removed whatever happens.
    FirmwareBuild compile(Job& job);
    // Links the Arm image (growing flash/SRAM when the sample data needs it); throws BuildError.
    void link_arm(Job& job);
    // Places and links the RISC-V image behind the Arm's; throws BuildError.
    void link_riscv_behind_arm(Job& job);
    // Links the RISC-V image where the folder places it (FirmwareSources::riscv_flash); throws BuildError.
    void link_riscv_in_place(Job& job);
    // Links the RISC-V image for `flash` and `sram`; throws BuildError.
    void build_riscv(const FirmwareSources& sources, const FirmwareSources::Region& flash,
                     const FirmwareSources::Region& sram, const std::string& out_elf, const std::string& link_dir);
    // Objects of the shim and startup sources (one set per device flags and
    // shim content, kept in the cache); compiles them the first time.
    std::vector<std::string> support_objects(const std::string& gcc, const std::vector<std::string>& device_flags,
                                             uint64_t shim_key);
    const DeviceConfig& cfg_;
    std::string cache_root_;
};

}  // namespace ai8x
