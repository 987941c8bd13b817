// rvfi_core: a stand-in for a RISC-V core in a cocotb testbench.
//
// Its RVFI ports (riscv-formal's names, NRET = 1, XLEN = 64, ILEN = 32, plus hartscope's
// floating-point write extension and riscv-formal's CSR extension for six CSRs) are
// registered copies of the in_* inputs, which the cocotb test drives from a hartscope Hart
// stepping a program. In your testbench, a real core's RVFI ports take this module's place.
`timescale 1ns / 1ps

module rvfi_core (
    input  wire        clk,
    input  wire        rst,

    input  wire        in_valid,
    input  wire [63:0] in_order,
    input  wire [31:0] in_insn,
    input  wire        in_trap,
    input  wire        in_halt,
    input  wire        in_intr,
    input  wire [1:0]  in_mode,
    input  wire [1:0]  in_ixl,
    input  wire [4:0]  in_rd_addr,
    input  wire [63:0] in_rd_wdata,
    input  wire [63:0] in_pc_rdata,
    input  wire [63:0] in_pc_wdata,
    input  wire [63:0] in_mem_addr,
    input  wire [7:0]  in_mem_rmask,
    input  wire [7:0]  in_mem_wmask,
    input  wire [63:0] in_mem_rdata,
    input  wire [63:0] in_mem_wdata,
    input  wire        in_frd_wen,
    input  wire [4:0]  in_frd_addr,
    input  wire [63:0] in_frd_wdata,
    input  wire [63:0] in_csr_mstatus_wmask,  in_csr_mstatus_wdata,
    input  wire [63:0] in_csr_mtvec_wmask,    in_csr_mtvec_wdata,
    input  wire [63:0] in_csr_mepc_wmask,     in_csr_mepc_wdata,
    input  wire [63:0] in_csr_mcause_wmask,   in_csr_mcause_wdata,
    input  wire [63:0] in_csr_mtval_wmask,    in_csr_mtval_wdata,
    input  wire [63:0] in_csr_mscratch_wmask, in_csr_mscratch_wdata,

    output reg         rvfi_valid,
    output reg  [63:0] rvfi_order,
    output reg  [31:0] rvfi_insn,
    output reg         rvfi_trap,
    output reg         rvfi_halt,
    output reg         rvfi_intr,
    output reg  [1:0]  rvfi_mode,
    output reg  [1:0]  rvfi_ixl,
    output reg  [4:0]  rvfi_rd_addr,
    output reg  [63:0] rvfi_rd_wdata,
    output reg  [63:0] rvfi_pc_rdata,
    output reg  [63:0] rvfi_pc_wdata,
    output reg  [63:0] rvfi_mem_addr,
    output reg  [7:0]  rvfi_mem_rmask,
    output reg  [7:0]  rvfi_mem_wmask,
    output reg  [63:0] rvfi_mem_rdata,
    output reg  [63:0] rvfi_mem_wdata,
    output reg         rvfi_frd_wen,
    output reg  [4:0]  rvfi_frd_addr,
    output reg  [63:0] rvfi_frd_wdata,
    output reg  [63:0] rvfi_csr_mstatus_wmask,  rvfi_csr_mstatus_wdata,
    output reg  [63:0] rvfi_csr_mtvec_wmask,    rvfi_csr_mtvec_wdata,
    output reg  [63:0] rvfi_csr_mepc_wmask,     rvfi_csr_mepc_wdata,
    output reg  [63:0] rvfi_csr_mcause_wmask,   rvfi_csr_mcause_wdata,
    output reg  [63:0] rvfi_csr_mtval_wmask,    rvfi_csr_mtval_wdata,
    output reg  [63:0] rvfi_csr_mscratch_wmask, rvfi_csr_mscratch_wdata
);
    always @(posedge clk) begin
        rvfi_valid <= rst ? 1'b0 : in_valid;
        rvfi_order <= in_order;
        rvfi_insn <= in_insn;
        rvfi_trap <= in_trap;
        rvfi_halt <= in_halt;
        rvfi_intr <= in_intr;
        rvfi_mode <= in_mode;
        rvfi_ixl <= in_ixl;
        rvfi_rd_addr <= in_rd_addr;
        rvfi_rd_wdata <= in_rd_wdata;
        rvfi_pc_rdata <= in_pc_rdata;
        rvfi_pc_wdata <= in_pc_wdata;
        rvfi_mem_addr <= in_mem_addr;
        rvfi_mem_rmask <= in_mem_rmask;
        rvfi_mem_wmask <= in_mem_wmask;
        rvfi_mem_rdata <= in_mem_rdata;
        rvfi_mem_wdata <= in_mem_wdata;
        rvfi_frd_wen <= in_frd_wen;
        rvfi_frd_addr <= in_frd_addr;
        rvfi_frd_wdata <= in_frd_wdata;
        rvfi_csr_mstatus_wmask <= in_csr_mstatus_wmask;
        rvfi_csr_mstatus_wdata <= in_csr_mstatus_wdata;
        rvfi_csr_mtvec_wmask <= in_csr_mtvec_wmask;
        rvfi_csr_mtvec_wdata <= in_csr_mtvec_wdata;
        rvfi_csr_mepc_wmask <= in_csr_mepc_wmask;
        rvfi_csr_mepc_wdata <= in_csr_mepc_wdata;
        rvfi_csr_mcause_wmask <= in_csr_mcause_wmask;
        rvfi_csr_mcause_wdata <= in_csr_mcause_wdata;
        rvfi_csr_mtval_wmask <= in_csr_mtval_wmask;
        rvfi_csr_mtval_wdata <= in_csr_mtval_wdata;
        rvfi_csr_mscratch_wmask <= in_csr_mscratch_wmask;
        rvfi_csr_mscratch_wdata <= in_csr_mscratch_wdata;
    end
endmodule
