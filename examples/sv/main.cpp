// The Verilator main of the example: a free-running clock, the simulation until $finish, and
// an exit status saying whether anything was reported (1 after an $error or $fatal).
#include <memory>

#include "Vtb_top.h"
#include "verilated.h"

int main(int argc, char** argv) {
    auto ctx = std::make_unique<VerilatedContext>();
    // Report every mismatch, not only the first ($error stops at the limit);
    // +verilator+error+limit+N on the command line still sets it.
    ctx->errorLimit(1000);
    ctx->commandArgs(argc, argv);
    auto top = std::make_unique<Vtb_top>(ctx.get(), "tb_top");
    top->clk = 0;
    while (!ctx->gotFinish()) {
        top->clk = !top->clk;
        top->eval();
        ctx->timeInc(1);
    }
    top->final();
    return ctx->errorCount() > 0 || ctx->gotError() ? 1 : 0;
}
