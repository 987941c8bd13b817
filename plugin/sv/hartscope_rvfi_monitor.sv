// An RVFI monitor that checks a core against hartscope's reference hart in lockstep.
//
// Instantiate it on the core's RVFI ports (one retirement channel, RV64). At every rising
// clock edge with rvfi_valid (and not reset) it hands the retirement to the reference hart
// (hs_dpi_rvfi_check), which executes the same step and compares: pc, instruction,
// privilege, trap, the rd write, memory address and data, and the hartscope extensions (an
// FP register write, CSR writes) when the core drives them. Each mismatch is an $error:
//
//   hartscope: retirement 1234, instruction at pc 0x0000000080000010: 00150513  addi a0,a0,1:
//   x10/a0 expected 0x0000000000000005, actual 0x0000000000000006
//
// and the final block prints "hartscope: N retirements checked, M mismatching".
//
// Parameters:
//   ELF        the program (also loaded into the core's memory); "" takes +hartscope_elf=PATH
//   CONFIG     the reference hart's settings in JSON (plugin/c/README.md); +hartscope_config=
//              overrides. With RVFI alone (no CSR extension) keep the defaults; a core that
//              drives no FP writes needs {"reports": {"fpr": false}}.
//   MAX_ERRORS stop the simulation ($finish) after this many mismatching retirements; 0: go on
//   RECORD     a file to record the session in as a tandem stream ("" : none)
// Note: a Verilator simulation stops at the first $error unless run with
// +verilator+error+limit+N (or errorLimit set in the C++ main); raise it to MAX_ERRORS.
module hartscope_rvfi_monitor
  import hartscope_pkg::*;
#(
    parameter string ELF = "",
    parameter string CONFIG = "",
    parameter int MAX_ERRORS = 10,
    parameter string RECORD = ""
) (
    input logic        clock,
    input logic        reset,
    input logic        rvfi_valid,
    input logic [63:0] rvfi_order,
    input logic [31:0] rvfi_insn,
    input logic        rvfi_trap,
    input logic        rvfi_halt,
    input logic        rvfi_intr,
    input logic [ 1:0] rvfi_mode,
    input logic [ 1:0] rvfi_ixl,
    input logic [ 4:0] rvfi_rs1_addr,
    input logic [ 4:0] rvfi_rs2_addr,
    input logic [63:0] rvfi_rs1_rdata,
    input logic [63:0] rvfi_rs2_rdata,
    input logic [ 4:0] rvfi_rd_addr,
    input logic [63:0] rvfi_rd_wdata,
    input logic [63:0] rvfi_pc_rdata,
    input logic [63:0] rvfi_pc_wdata,
    input logic [63:0] rvfi_mem_addr,
    input logic [ 7:0] rvfi_mem_rmask,
    input logic [ 7:0] rvfi_mem_wmask,
    input logic [63:0] rvfi_mem_rdata,
    input logic [63:0] rvfi_mem_wdata,
    // hartscope's extensions: tie to 0 when the core has none.
    input logic              hs_frd_wen,
    input logic [ 4:0]       hs_frd_addr,
    input logic [63:0]       hs_frd_wdata,
    input logic [ 3:0]       hs_csr_count,
    input logic [7:0][11:0]  hs_csr_addr,
    input logic [7:0][63:0]  hs_csr_wmask,
    input logic [7:0][63:0]  hs_csr_wdata
);

  chandle h = null;
  int mismatching = 0;

  initial begin
    string elf;
    string cfg;
    elf = ELF;
    cfg = CONFIG;
    if (elf == "") void'($value$plusargs("hartscope_elf=%s", elf));
    void'($value$plusargs("hartscope_config=%s", cfg));
    if (elf == "") $fatal(1, "hartscope: no program (parameter ELF or +hartscope_elf=PATH)");
    h = hs_dpi_new(cfg);
    if (h == null) $fatal(1, "hartscope: %s", hs_last_error());
    if (hs_dpi_load_elf(h, elf) < 0) $fatal(1, "hartscope: %s", hs_last_error());
    if (RECORD != "" && hs_record(h, RECORD) < 0) $fatal(1, "hartscope: %s", hs_last_error());
    $display("hartscope: checking %s against the reference hart", elf);
  end

  always @(posedge clock) begin
    if (!reset && rvfi_valid && h != null) begin
      int n;
      for (int i = 0; i < int'(hs_csr_count) && i < HS_RVFI_MAX_CSR; i++) begin
        if (hs_dpi_rvfi_csr(h, 32'(hs_csr_addr[i]), hs_csr_wmask[i], hs_csr_wdata[i]) < 0)
          $fatal(1, "hartscope: retirement %0d: %s", rvfi_order, hs_last_error());
      end
      n = hs_dpi_rvfi_check(h, 8'd1, rvfi_order, rvfi_insn, 8'(rvfi_trap), 8'(rvfi_halt),
                            8'(rvfi_intr), 8'(rvfi_mode), 8'(rvfi_ixl), 8'(rvfi_rs1_addr),
                            8'(rvfi_rs2_addr), rvfi_rs1_rdata, rvfi_rs2_rdata,
                            8'(rvfi_rd_addr), rvfi_rd_wdata, rvfi_pc_rdata, rvfi_pc_wdata,
                            rvfi_mem_addr, rvfi_mem_rmask, rvfi_mem_wmask, rvfi_mem_rdata,
                            rvfi_mem_wdata, 8'(hs_frd_wen), 8'(hs_frd_addr), hs_frd_wdata);
      if (n < 0) $fatal(1, "hartscope: retirement %0d: %s", rvfi_order, hs_last_error());
      for (int i = 0; i < n; i++) $error("hartscope: %s", hs_dpi_mismatch_text(h, i));
      if (n > 0) begin
        mismatching++;
        if (MAX_ERRORS > 0 && mismatching >= MAX_ERRORS) begin
          $display("hartscope: %0d mismatching retirements: stopping", mismatching);
          $finish;
        end
      end
    end
  end

  final begin
    if (h != null) begin
      $display("hartscope: %0d retirements checked, %0d mismatching", hs_dpi_checked(h),
               hs_dpi_errors(h));
      if (RECORD != "" && hs_finish_recording(h) < 0) $display("hartscope: %s", hs_last_error());
      void'(hs_free(h));
      h = null;
    end
  end

endmodule
