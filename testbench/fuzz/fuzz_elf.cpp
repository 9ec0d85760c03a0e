// libFuzzer harness: the firmware ELF loader (firmware/host/elf_image.h) and
// the symbol look-ups the simulator makes on a loaded image (messages naming
// the code at a PC, the memory checker's variables).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <elf.h>

#include "firmware/host/elf_image.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::vector<uint8_t> file(data, data + size);
    // Load as whichever core the header names, so both machines' paths run.
    uint16_t machine = EM_ARM;
    if (size >= offsetof(Elf32_Ehdr, e_machine) + 2) std::memcpy(&machine, data + offsetof(Elf32_Ehdr, e_machine), 2);
    if (machine != EM_RISCV) machine = EM_ARM;
    try {
        const ai8x::ElfImage image = ai8x::ElfImage::parse(file, "fuzz.elf", machine);
        const uint32_t probes[] = {image.entry(), image.entry() + 3, 0, 0xffffffffu, 0x20000000u};
        for (uint32_t a : probes) {
            (void)image.describe(a);
            (void)image.object_at(a);
            (void)image.function_at(a);
            (void)image.objects_in(a, a + 0x100);
        }
        for (const char* name : {"main", "__stack_top", "__heap_start", "ml_data32"}) (void)image.find_symbol(name);
    } catch (const ai8x::ElfError&) {
    }
    return 0;
}
