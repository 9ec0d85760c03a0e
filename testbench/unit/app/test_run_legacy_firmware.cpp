// `ai8xsim run` on folders written the way older generator releases (2021-2023)
// wrote them, without vendor files: the folder carries its own softmax.c, and
// the dual-core main() puts the Arm in deep sleep (SCB->SCR SLEEPDEEP, __WFI)
// until the RISC-V core signals through SEMA.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "build_paths.h"
#include "testbench/unit/test_support.h"

namespace fs = std::filesystem;

namespace {

int run_legacy(const std::string& args, const fs::path& out) {
    const std::string cmd =
        "SC_COPYRIGHT_MESSAGE=DISABLE '" + std::string(AI8XSIM_BINARY) + "' " + args + " >'" + out.string() + "' 2>&1";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

fs::path fresh_folder(const std::string& tag) {
    const fs::path dir = fs::temp_directory_path() / ("ai8xsim-legacy-" + tag + "-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

int run_folder(const fs::path& dir, std::string& text) {
    const fs::path out = dir / "out";
    const int rc = run_legacy("run '" + dir.string() + "' --build-dir '" + (dir / "cache").string() + "'", out);
    text = ai8x::test::slurp(out);
    return rc;
}

}  // namespace

TEST_CASE("run: a folder's own softmax.c replaces the shim's", "[run][shim]") {
    const fs::path dir = fresh_folder("softmax");
    // Generator releases copy softmax.c into every project; it must link and win.
    std::ofstream(dir / "softmax.c") << R"(#include <stdint.h>
void softmax_q17p14_q15(const int32_t *in, const uint16_t n, int16_t *out)
{
    for (uint16_t i = 0; i < n; i++) out[i] = (int16_t) (in[i] + 7);
}
)";
    std::ofstream(dir / "main.c") << R"(#include <stdint.h>
#include "mxc.h"
void softmax_q17p14_q15(const int32_t *in, const uint16_t n, int16_t *out);
int main(void)
{
    const int32_t in[2] = {1, 2};
    int16_t out[2] = {0, 0};
    softmax_q17p14_q15(in, 2, out);
    return out[0] == 8 && out[1] == 9 ? 0 : 1;
}
)";
    std::string text;
    const int rc = run_folder(dir, text);
    INFO(text);
    CHECK(rc == 0);
    fs::remove_all(dir);
}

TEST_CASE("run: SCB->SCR SLEEPDEEP then __WFI sleeps the Arm until the RISC-V core wakes it", "[run][shim][riscv]") {
    const fs::path dir = fresh_folder("deepsleep");
    std::ofstream(dir / "main.c") << R"(#include "mxc.h"
#include "fcr_regs.h"
#include "sema_regs.h"
extern volatile void const *__FlashStart_;
static volatile int woken;
static void WakeISR(void)
{
    MXC_SEMA->irq0 = MXC_F_SEMA_IRQ0_EN & ~MXC_F_SEMA_IRQ0_CM4_IRQ;
    woken = 1;
}
int main(void)
{
    MXC_FCR->urvbootaddr = (uint32_t) &__FlashStart_;
    MXC_SYS_ClockEnable(MXC_SYS_PERIPH_CLOCK_SMPHR);
    NVIC_SetVector(RISCV_IRQn, WakeISR);
    MXC_SYS_ClockEnable(MXC_SYS_PERIPH_CLOCK_CPU1);
    MXC_LP_ClearWakeStatus();
    SCB->SCR |= SCB_SCR_SLEEPDEEP_Msk; // SLEEPDEEP=1
    __WFI(); // Let RISC-V run
    if (!(SCB->SCR & SCB_SCR_SLEEPDEEP_Msk)) return 2;
    return woken ? 0 : 1;
}
)";
    std::ofstream(dir / "main_riscv.c") << R"(#include "mxc.h"
#include "sema_regs.h"
int main(void)
{
    MXC_SEMA->irq0 = MXC_F_SEMA_IRQ0_EN | MXC_F_SEMA_IRQ0_CM4_IRQ;
    return 0;
}
)";
    std::string text;
    const int rc = run_folder(dir, text);
    INFO(text);
    CHECK(rc == 0);  // 1: __WFI returned without the wake-up; 2: SCR lost SLEEPDEEP
    fs::remove_all(dir);
}
