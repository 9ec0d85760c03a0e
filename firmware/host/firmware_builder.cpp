#include "firmware/host/firmware_builder.h"

#include <elf.h>

#include "firmware/host/elf_image.h"
#include "firmware/host/firmware_cache_root.h"
#include "firmware/host/host_command.h"
#include "firmware/host/temporary_files.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <cctype>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>
#include "build_paths.h"

namespace fs = std::filesystem;

namespace ai8x {

namespace {

const char* kFirmwareDir = AI8XSIM_SOURCE_DIR "/firmware";

// Soft float: the core model stacks only the basic exception frame (no lazy
// FPU state), and nothing in generated firmware needs floating point.
// RISC-V image: no C library of the toolchain (firmware/riscv has the few
// functions generated code calls; docs/riscv.md says why), libgcc for the rest.
// -ffreestanding: the compiler's own stdint.h/stddef.h/stdarg.h, without a C library below them.
// --nmagic: no page-aligned segments, so no ELF header bytes are loaded into the Arm's flash.
const char* const kRiscvCompileFlags[] = {"-O2",
                                          "-g",
                                          "-fno-var-tracking-assignments",  // as kCompileFlags, below
                                          "-std=gnu11",
                                          "-ffreestanding",
                                          "-ffunction-sections",
                                          "-fdata-sections",
                                          "-nostdlib",
                                          "-nostartfiles",
                                          "-Wl,--gc-sections",
                                          "-Wl,--nmagic"};
// Shim sources that only make sense on the Cortex-M4 (newlib system calls, the NVIC vector table).
const char* const kArmOnlyShimSources[] = {"console.c", "nvic_table.c"};

// -fno-var-tracking-assignments: GCC's variable-tracking pass is quadratic in
// a function's size, and generated cnn_unload() functions reach 25,000 lines
// (r-80wideout-q4-32bit: 4+ CPU minutes with it, 42 s without). It changes
// only where the debug information places optimised-out locals, never the
// code (objdump of its cnn.o and of demo-cats-dogs' cnn.o/main.o: identical).
const std::vector<std::string> kCompileFlags = {
    "-mcpu=cortex-m4",
    "-mthumb",
    "-mfloat-abi=soft",
    "-O2",
    "-g",
    "-fno-var-tracking-assignments",
    "-std=gnu11",
    "-ffunction-sections",
    "-fdata-sections",
    "--specs=nano.specs",
    "-nostartfiles",
    "-Wl,--gc-sections",
};

std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) throw std::runtime_error(p.string() + ": cannot read");
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct Fnv1a {
    uint64_t h = 1469598103934665603ull;
    void add(const std::string& s) {
        for (unsigned char c : s) {
            h ^= c;
            h *= 1099511628211ull;
        }
        h ^= 0xFF;
        h *= 1099511628211ull;  // separator so "ab"+"c" != "a"+"bc"
    }
};

// Files below `dir` whose name ends in `ext` (empty: all), sorted.
std::vector<fs::path> files_under(const fs::path& dir, const std::string& ext) {
    std::vector<fs::path> out;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file() && (ext.empty() || e.path().extension() == ext)) out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

uint64_t overflow_bytes(const std::string& output, const std::string& region) {
    std::smatch m;
    std::regex re("region `" + region + "' overflowed by ([0-9]+) bytes");
    return std::regex_search(output, m, re) ? std::stoull(m[1]) : 0;
}

uint64_t round_up(uint64_t v, uint64_t to) { return (v + to - 1) / to * to; }

// The Arm compiler with the image flags, the device's interrupt numbers and
// the shim's headers: what compiling a shim object and linking an image share.
std::string arm_command(const std::string& gcc, const std::vector<std::string>& device_flags) {
    std::string cmd = shell_quote(gcc);
    for (const auto& f : kCompileFlags) cmd += " " + f;
    for (const auto& f : device_flags) cmd += " " + f;
    return cmd + " -I" + shell_quote((fs::path(kFirmwareDir) / "shim" / "include").string());
}

// The -I options of a folder's own headers: the folder, then its extra header folders.
std::string folder_includes(const FirmwareSources& src) {
    std::string out = " -I" + shell_quote(src.dir);
    for (const auto& d : src.include_dirs) out += " -I" + shell_quote(d);
    return out;
}

// The folder's part of an image's cache key: every C source and header of the
// folder (a single-core image leaves out main_riscv.c), then every file of
// its extra header folders and every source that lies outside it.
void hash_folder_inputs(Fnv1a& hash, const FirmwareSources& src, bool dual) {
    for (const auto& e : fs::directory_iterator(src.dir))
        if (e.is_regular_file() && (e.path().extension() == ".c" || e.path().extension() == ".h") &&
            (dual || e.path().filename() != "main_riscv.c")) {
            hash.add(e.path().filename().string());
            hash.add(read_file(e.path()));
        }
    for (const auto& d : src.include_dirs)
        for (const auto& f : files_under(d, "")) hash.add(f.string()), hash.add(read_file(f));
    std::error_code ec;
    for (const auto* list : {&src.arm, &src.riscv})
        for (const auto& f : *list)
            if (!fs::equivalent(fs::path(f).parent_path(), src.dir, ec)) hash.add(f), hash.add(read_file(f));
    for (const auto* flags : {&src.arm_flags, &src.riscv_flags})
        for (const auto& f : *flags) hash.add("flag:" + f);
    for (const auto* r : {&src.riscv_flash, &src.riscv_sram})
        if (*r) hash.add("placed:" + std::to_string((*r)->base) + ":" + std::to_string((*r)->size));
}

// The linker script's MEMORY part, which sections.ld / riscv.ld include.
void write_memory_script(const fs::path& path, const std::string& config, uint64_t flash_base, uint64_t flash_size,
                         uint64_t sram_base, uint64_t sram_size) {
    std::ofstream ld(path);
    ld << "/* Generated by ai8xsim from " << config << " */\nMEMORY\n{\n"
       << "  FLASH (rx)  : ORIGIN = " << flash_base << ", LENGTH = " << flash_size << "\n"
       << "  SRAM  (rwx) : ORIGIN = " << sram_base << ", LENGTH = " << sram_size << "\n}\n";
}

// -D flags naming the RISC-V core's interrupt numbers for the shim (it
// numbers them its own way: firmware/shim/include/device_map.h).
std::vector<std::string> riscv_irq_flags(const DeviceConfig& cfg) {
    return {
        "-DAI8XSIM_CNN_IRQ=" + std::to_string(cfg.riscv.cnn_irq),
        "-DAI8XSIM_CNN_FIFO_IRQ=" + std::to_string(cfg.riscv.cnn_fifo_irq),
        "-DAI8XSIM_IRQ_COUNT=" + std::to_string(cfg.riscv.irq_count),
    };
}

}  // namespace

FirmwareBuilder::FirmwareBuilder(const DeviceConfig& cfg, std::string cache_root)
    : cfg_(cfg), cache_root_(cache_root.empty() ? default_firmware_cache_root() : std::move(cache_root)) {}

namespace {
bool dual_core(const std::string& dir) { return fs::is_regular_file(fs::path(dir) / "main_riscv.c"); }

std::vector<std::string> c_files(const std::string& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.is_regular_file() && e.path().extension() == ".c") out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

// The file names of `paths`, comma-separated, for messages.
std::string source_file_names(const std::vector<std::string>& paths) {
    std::string names;
    for (const auto& p : paths) names += (names.empty() ? "" : ", ") + fs::path(p).filename().string();
    return names;
}

}  // namespace

std::vector<std::string> FirmwareBuilder::firmware_sources(const std::string& dir) {
    std::vector<std::string> out;
    const bool dual = dual_core(dir);
    for (const auto& f : c_files(dir)) {
        const auto name = fs::path(f).filename().string();
        // The RISC-V core's half of a dual-core project is not Arm code.
        if (name == "main_riscv.c" || (dual && name != "main.c")) continue;
        out.push_back(f);
    }
    return out;
}

std::vector<std::string> FirmwareBuilder::riscv_sources(const std::string& dir) {
    std::vector<std::string> out;
    if (!dual_core(dir)) return out;
    for (const auto& f : c_files(dir))
        if (fs::path(f).filename() != "main.c") out.push_back(f);
    return out;
}

std::vector<std::string> FirmwareBuilder::support_objects(const std::string& gcc,
                                                          const std::vector<std::string>& device_flags,
                                                          uint64_t shim_key) {
    // Every image of a device links the same shim and startup code: compiled
    // once, it is half of what building an image used to cost. The objects
    // are what compiling them beside the folder's sources gave (the shim
    // includes nothing from the folder), so the images do not change.
    const fs::path shim = fs::path(kFirmwareDir) / "shim";
    std::vector<fs::path> sources = files_under(shim, ".c");
    for (auto& p : files_under(fs::path(kFirmwareDir) / "startup", ".c")) sources.push_back(p);
    char key[17];
    std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(shim_key));
    const fs::path dir = fs::path(cache_root_) / ("_shim-objects-" + std::string(key));
    std::vector<std::string> objects;
    for (const auto& s : sources) objects.push_back((dir / (s.stem().string() + ".o")).string());
    if (fs::is_directory(dir)) return objects;  // a folder appears only complete (rename below)

    // Compiled into a folder of this build's own (processes and threads build
    // at once), renamed into place whole: no build ever sees a partial set.
    // It sits one level down and ends in .tmp<pid>, like an image's
    // temporary files, so that whoever kills a build finds it (the sweep and
    // the conformance runner: tools/process_pool.h), and a later shim compile
    // removes it if the build was killed outright (temporary_files.h).
    static std::atomic<unsigned> serial{0};
    const fs::path staging = fs::path(cache_root_) / "_shim-staging";
    remove_abandoned_temporary_files(staging.string());
    const fs::path tmp =
        staging / (std::string(key) + "-" + std::to_string(serial++) + ".tmp" + std::to_string(getpid()));
    fs::create_directories(tmp);
    for (const auto& s : sources) {
        const std::string cmd = arm_command(gcc, device_flags) + " -c " + shell_quote(s.string()) + " -o " +
                                shell_quote((tmp / (s.stem().string() + ".o")).string());
        std::string output;
        if (run_host_command(cmd, output) != 0) {
            std::error_code ec;
            fs::remove_all(tmp, ec);
            throw BuildError("building the board-support shim's " + s.string() + " failed", output);
        }
    }
    std::error_code ec;
    fs::rename(tmp, dir, ec);
    if (ec) {  // another build put the same set there first
        fs::remove_all(tmp, ec);
        if (!fs::is_directory(dir)) throw std::runtime_error("cannot create " + dir.string());
    }
    return objects;
}

void FirmwareBuilder::build_riscv(const FirmwareSources& src, const FirmwareSources::Region& flash,
                                  const FirmwareSources::Region& sram, const std::string& out_elf,
                                  const std::string& link_dir) {
    const RiscvConfig& rv = cfg_.riscv;
    const fs::path riscv = fs::path(kFirmwareDir) / "riscv";
    const fs::path shim = fs::path(kFirmwareDir) / "shim";
    write_memory_script(fs::path(link_dir) / "memory.ld", cfg_.source_path, flash.base, flash.size, sram.base,
                        sram.size);
    const std::string gcc =
        std::getenv("AI8XSIM_RISCV_GCC") ? std::getenv("AI8XSIM_RISCV_GCC") : "riscv64-unknown-elf-gcc";
    // libgcc (64-bit division in printf) of the multilib closest to this core.
    std::string libgcc;
    if (run_host_command(
            shell_quote(gcc) + " -march=" + rv.libgcc_march + " -mabi=" + rv.mabi + " -print-libgcc-file-name",
            libgcc) != 0)
        throw BuildError("building the RISC-V firmware of " + src.dir + " failed: no " + gcc, libgcc);
    while (!libgcc.empty() && std::isspace(static_cast<unsigned char>(libgcc.back()))) libgcc.pop_back();
    std::string cmd = shell_quote(gcc) + " -march=" + rv.march + " -mabi=" + rv.mabi;
    for (const char* f : kRiscvCompileFlags) cmd += std::string(" ") + f;
    for (const auto& f : riscv_irq_flags(cfg_)) cmd += " " + f;
    for (const auto& f : src.riscv_flags) cmd += " " + shell_quote(f);
    // The C library headers of the shim come first: the toolchain brings none.
    cmd += " -I" + shell_quote((riscv / "include").string()) + " -I" + shell_quote((shim / "include").string()) +
           folder_includes(src);
    for (const auto& s : src.riscv) cmd += " " + shell_quote(s);
    for (const auto& s : files_under(shim / "src", ".c"))
        if (std::find(std::begin(kArmOnlyShimSources), std::end(kArmOnlyShimSources), s.filename().string()) ==
            std::end(kArmOnlyShimSources))
            cmd += " " + shell_quote(s.string());
    for (const auto& s : files_under(riscv / "src", ".c")) cmd += " " + shell_quote(s.string());
    for (const auto& s : files_under(riscv / "src", ".S")) cmd += " " + shell_quote(s.string());
    cmd +=
        " -L" + shell_quote(link_dir) + " -T" + shell_quote((riscv / "riscv.ld").string()) + " " + shell_quote(libgcc);
    cmd += " -o " + shell_quote(out_elf);
    std::string output;
    if (run_host_command(cmd, output) != 0) {
        std::error_code ec;
        fs::remove(out_elf, ec);
        throw BuildError("building the RISC-V firmware of " + src.dir + " failed", output);
    }
    if (!output.empty()) spdlog::debug("firmware: RISC-V compiler says:\n{}", output);
}

FirmwareSources FirmwareSources::of_folder(const std::string& dir) {
    FirmwareSources s;
    s.dir = dir;
    s.arm = FirmwareBuilder::firmware_sources(dir);
    s.riscv = FirmwareBuilder::riscv_sources(dir);
    return s;
}

// One build: its inputs, the cache entry it fills, and the temporaries it
// writes there before renaming them into place. Everything this process
// writes before the final renames is its own (the process id and a serial in
// the names): two runs building the same folder at once, in two processes or
// two threads of one, must not link with each other's memory.ld.
struct FirmwareBuilder::Job {
    Job(const DeviceConfig& cfg, const FirmwareSources& src, const std::string& cache_root);

    const FirmwareSources& src;
    bool dual = false;
    const CpuRegion* flash = nullptr;
    const CpuRegion* sram = nullptr;
    std::vector<std::string> device_flags;
    uint64_t key = 0, shim_key = 0;  // cache keys of the image and of the shim objects
    fs::path out_dir, elf, layout, riscv_elf;
    fs::path tmp_elf, tmp_riscv_elf, tmp_layout, link_dir;
    std::string gcc;
    std::vector<std::string> support;  // the shim and startup objects
    uint64_t flash_size = 0, sram_size = 0;

private:
    void find_memories(const DeviceConfig& cfg);
    void hash_inputs(const DeviceConfig& cfg, const std::vector<std::string>& riscv_flags);
};

FirmwareBuilder::Job::Job(const DeviceConfig& cfg, const FirmwareSources& sources, const std::string& cache_root)
    : src(sources), dual(!sources.riscv.empty()) {
    find_memories(cfg);
    if (src.arm.empty()) throw std::runtime_error(src.dir + ": no .c files to build");
    if (dual && !cfg.riscv.present)
        throw std::runtime_error(src.dir + ": a RISC-V program (" + source_file_names(src.riscv) +
                                 ") makes this a dual-core image, but " + cfg.source_path +
                                 " describes no RISC-V core (no riscv: section) for the " + cfg.name);
    // The device's interrupt numbers name CNN_IRQn and size the vector table
    // in the shim (firmware/shim/include/device_map.h).
    device_flags = {
        "-DAI8XSIM_CNN_IRQ=" + std::to_string(cfg.cnn_irq),
        "-DAI8XSIM_CNN_FIFO_IRQ=" + std::to_string(cfg.cnn_fifo_irq),
        "-DAI8XSIM_IRQ_COUNT=" + std::to_string(cfg.irq_count),
        "-DAI8XSIM_RISCV_IRQ=" + std::to_string(cfg.soc.arm_irq_from_riscv),
    };
    hash_inputs(cfg, riscv_irq_flags(cfg));
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(key));
    out_dir = fs::path(cache_root) / (fs::path(src.dir).lexically_normal().filename().string() + "-" + hex);
    elf = out_dir / "firmware.elf";
    layout = out_dir / "layout.txt";
    riscv_elf = out_dir / "riscv.elf";
    static std::atomic<unsigned> serial{0};
    const std::string mine = std::to_string(serial++) + ".tmp" + std::to_string(getpid());
    tmp_elf = out_dir / ("firmware.elf." + mine);
    tmp_riscv_elf = out_dir / ("riscv.elf." + mine);
    tmp_layout = out_dir / ("layout.txt." + mine);
    link_dir = out_dir / ("link." + mine);
    gcc = std::getenv("AI8XSIM_ARM_GCC") ? std::getenv("AI8XSIM_ARM_GCC") : "arm-none-eabi-gcc";
}

void FirmwareBuilder::Job::find_memories(const DeviceConfig& cfg) {
    for (const auto& r : cfg.cpu_regions) {
        if (!r.writable && !flash) flash = &r;
        if (r.writable && !sram) sram = &r;
    }
    if (!flash || !sram)
        throw std::runtime_error(cfg.source_path +
                                 ": cpu.regions needs one read-only (flash) and one writable (SRAM) region");
}

void FirmwareBuilder::Job::hash_inputs(const DeviceConfig& cfg, const std::vector<std::string>& riscv_flags) {
    // Every input that can change the image; the shim's own key: the flags
    // and the shim and startup files, not the folder.
    Fnv1a hash, shim_hash;
    for (const auto& f : kCompileFlags) hash.add(f), shim_hash.add(f);
    for (const auto& f : device_flags) hash.add(f), shim_hash.add(f);
    hash.add(std::to_string(flash->base) + ":" + std::to_string(flash->size) + ":" + std::to_string(sram->base) + ":" +
             std::to_string(sram->size));
    if (dual) {
        for (const char* f : kRiscvCompileFlags) hash.add(f);
        for (const auto& f : riscv_flags) hash.add(f);
        hash.add("riscv:" + cfg.riscv.libgcc_march + cfg.riscv.march + ":" + cfg.riscv.mabi + ":" +
                 std::to_string(cfg.riscv.flash_max) + ":" + std::to_string(cfg.riscv.sram.base) + ":" +
                 std::to_string(cfg.riscv.sram.size) + ":" + std::to_string(cfg.riscv.arm_sram_size));
    }
    hash_folder_inputs(hash, src, dual);
    const fs::path riscv = fs::path(kFirmwareDir) / "riscv";
    std::vector<fs::path> hashed_dirs = {fs::path(kFirmwareDir) / "shim", fs::path(kFirmwareDir) / "startup"};
    if (dual) hashed_dirs.push_back(riscv);
    for (const auto& sub : hashed_dirs)
        for (const auto& e : fs::recursive_directory_iterator(sub))
            if (e.is_regular_file()) {
                const std::string name = e.path().lexically_relative(kFirmwareDir).string();
                const std::string content = read_file(e.path());
                hash.add(name), hash.add(content);
                if (sub != riscv) shim_hash.add(name), shim_hash.add(content);
            }
    key = hash.h;
    shim_key = shim_hash.h;
}

FirmwareBuild FirmwareBuilder::build(const FirmwareSources& sources) {
    Job job(cfg_, sources, cache_root_);
    if (std::optional<FirmwareBuild> done = cached(job)) return *done;
    fs::create_directories(job.out_dir);
    // A build of this entry killed earlier (Ctrl-C, SIGKILL) left its
    // temporaries here; this build is the first to look at the entry since.
    remove_abandoned_temporary_files(job.out_dir.string());
    fs::create_directories(job.link_dir);
    struct RemoveOnExit {
        fs::path path;
        ~RemoveOnExit() {
            std::error_code ec;
            fs::remove_all(path, ec);
        }
    } link_dir_guard{job.link_dir};
    return compile(job);
}

std::optional<FirmwareBuild> FirmwareBuilder::cached(const Job& job) const {
    if (!fs::exists(job.elf) || !fs::exists(job.layout) || (job.dual && !fs::exists(job.riscv_elf))) return {};
    FirmwareBuild result;
    result.elf_path = job.elf.string();
    if (job.dual) result.riscv_elf_path = job.riscv_elf.string();
    std::ifstream in(job.layout);
    in >> result.flash_size >> result.sram_size;
    if (!in) return {};
    result.from_cache = true;
    result.memory_enlarged = result.flash_size > job.flash->size || result.sram_size > job.sram->size;
    spdlog::debug("firmware: using cached {}", job.elf.string());
    return result;
}

FirmwareBuild FirmwareBuilder::compile(Job& job) {
    job.support = support_objects(job.gcc, job.device_flags, job.shim_key);
    link_arm(job);
    if (job.dual && job.src.riscv_flash)
        link_riscv_in_place(job);
    else if (job.dual)
        link_riscv_behind_arm(job);
    // The layout first, then the ELFs: a reader takes the cache entry only when
    // all exist, and each appears whole (rename).
    std::ofstream(job.tmp_layout) << job.flash_size << " " << job.sram_size << "\n";
    fs::rename(job.tmp_layout, job.layout);
    if (job.dual) fs::rename(job.tmp_riscv_elf, job.riscv_elf);
    fs::rename(job.tmp_elf, job.elf);

    FirmwareBuild result;
    result.elf_path = job.elf.string();
    if (job.dual) result.riscv_elf_path = job.riscv_elf.string();
    result.flash_size = job.flash_size;
    result.sram_size = job.sram_size;
    result.memory_enlarged = job.flash_size > job.flash->size || job.sram_size > job.sram->size;
    return result;
}

void FirmwareBuilder::link_arm(Job& job) {
    auto link = [&](uint64_t flash_size, uint64_t sram_size, std::string& output) {
        write_memory_script(job.link_dir / "memory.ld", cfg_.source_path, job.flash->base, flash_size, job.sram->base,
                            sram_size);
        std::string cmd = arm_command(job.gcc, job.device_flags) + folder_includes(job.src);
        for (const auto& f : job.src.arm_flags) cmd += " " + shell_quote(f);
        for (const auto& s : job.src.arm) cmd += " " + shell_quote(s);
        for (const auto& s : job.support) cmd += " " + shell_quote(s);
        cmd += " -L" + shell_quote(job.link_dir.string()) + " -T" +
               shell_quote((fs::path(kFirmwareDir) / "startup" / "sections.ld").string());
        cmd += " -o " + shell_quote(job.tmp_elf.string());
        return run_host_command(cmd, output);
    };
    // In a dual-core image the Arm keeps the low part of SRAM; the rest is the RISC-V core's.
    // A RISC-V image the folder places leaves the Arm what lies below it.
    const FirmwareSources& src = job.src;
    const bool placed = job.dual && src.riscv_flash && src.riscv_sram;
    job.flash_size = placed ? src.riscv_flash->base - job.flash->base : job.flash->size;
    job.sram_size = placed     ? src.riscv_sram->base - job.sram->base
                    : job.dual ? std::min(cfg_.riscv.arm_sram_size, job.sram->size)
                               : job.sram->size;
    std::string output;
    int rc = link(job.flash_size, job.sram_size, output);
    if (rc != 0 && placed)
        output += "\nThe Arm image must fit below the RISC-V image the folder places at " +
                  hex32(uint32_t(src.riscv_flash->base)) + " (flash) and " + hex32(uint32_t(src.riscv_sram->base)) +
                  " (SRAM).\n";
    if (rc != 0 && !placed) {
        // Sample data of some test networks is larger than the silicon's
        // memories: link again with regions grown to fit, and say so.
        uint64_t more_flash = overflow_bytes(output, "FLASH"), more_sram = overflow_bytes(output, "SRAM");
        if (more_flash || more_sram || output.find("SRAM overflow") != std::string::npos) {
            job.flash_size = round_up(job.flash_size + more_flash, 0x10000);
            job.sram_size = round_up(job.sram_size + more_sram + 0x2000, 0x10000);
            output.clear();
            rc = link(job.flash_size, job.sram_size, output);
        }
    }
    if (rc != 0) {
        std::error_code ec;
        fs::remove(job.tmp_elf, ec);
        throw BuildError("building the firmware of " + job.src.dir + " failed", output);
    }
    if (!output.empty()) spdlog::debug("firmware: compiler says:\n{}", output);
}

void FirmwareBuilder::link_riscv_behind_arm(Job& job) {
    const std::string failed = "building the firmware of " + job.src.dir + " failed";
    // The Arm image says where the RISC-V image goes (__FlashStart_): link it there.
    std::optional<uint32_t> flash_start;
    try {
        flash_start = ElfImage::load(job.tmp_elf.string()).find_symbol("__FlashStart_");
    } catch (const std::exception& e) {
        throw BuildError(failed, e.what());
    }
    if (!flash_start)
        throw BuildError(failed, "main.c of a dual-core folder does not use __FlashStart_ (the RISC-V boot address)");
    std::error_code ec;
    fs::remove(job.link_dir / "memory.ld", ec);
    build_riscv(job.src, {*flash_start, cfg_.riscv.flash_max}, {cfg_.riscv.sram.base, cfg_.riscv.sram.size},
                job.tmp_riscv_elf.string(), job.link_dir.string());
    const ElfImage rv = ElfImage::load(job.tmp_riscv_elf.string(), EM_RISCV);
    uint64_t rv_end = *flash_start;
    for (const auto& seg : rv.segments()) {
        if (seg.address >= job.sram->base) continue;
        if (seg.address < *flash_start)
            throw BuildError(failed, "the RISC-V image has a segment at " + hex32(seg.address) +
                                         ", below its flash start __FlashStart_ " + hex32(*flash_start) +
                                         " (it would overwrite the Arm image)");
        rv_end = std::max<uint64_t>(rv_end, uint64_t(seg.address) + seg.size);
    }
    // The RISC-V image runs past the end of flash: simulate a larger flash, as for the Arm image.
    if (rv_end > job.flash->base + job.flash_size) job.flash_size = round_up(rv_end - job.flash->base, 0x10000);
}

void FirmwareBuilder::link_riscv_in_place(Job& job) {
    const FirmwareSources& src = job.src;
    const FirmwareSources::Region sram =
        src.riscv_sram.value_or(FirmwareSources::Region{cfg_.riscv.sram.base, cfg_.riscv.sram.size});
    std::error_code ec;
    fs::remove(job.link_dir / "memory.ld", ec);
    build_riscv(src, *src.riscv_flash, sram, job.tmp_riscv_elf.string(), job.link_dir.string());
    // The board's flash reaches the end of the RISC-V image's region, as far as the image uses it.
    uint64_t rv_end = src.riscv_flash->base;
    for (const auto& seg : ElfImage::load(job.tmp_riscv_elf.string(), EM_RISCV).segments())
        if (seg.address < job.sram->base) rv_end = std::max<uint64_t>(rv_end, uint64_t(seg.address) + seg.size);
    job.flash_size = std::max(job.flash_size, round_up(rv_end - job.flash->base, 0x10000));
}

}  // namespace ai8x
