// A testbench whose "core" is a second hartscope hart: every cycle it steps the program and
// drives the RVFI signals of the retirement (hs_dpi_step_rvfi), and the RVFI monitor checks
// them against the reference hart. Replace the driver with your core's RVFI ports.
//
// Plusargs:
//   +hartscope_elf=PATH      the program (both harts)
//   +fault_order=N           put a fault into the first fitting retirement from order N on
//   +fault=KIND              rd (default): the rd value; store: the store data; load_addr: a
//                            load's address; pc: the next pc; csr: a CSR write's value;
//                            trap: an instruction that retired says it trapped
//   +max_cycles=N            stop after N cycles (default 5000000)
module tb_top (
    input logic clk
);
  import hartscope_pkg::*;

  chandle core = null;
  logic reset = 1'b1;
  int cycles = 0;
  int max_cycles = 5000000;
  longint fault_order = -1;
  string fault_kind = "rd";
  bit faulted = 0;
  int exit_code = 0;

  // The RVFI signals the "core" drives.
  byte unsigned valid, trap, halt, intr, mode, ixl, rd_addr, mem_rmask, mem_wmask;
  byte unsigned frd_wen, frd_addr;
  longint unsigned order, rd_wdata, pc_rdata, pc_wdata, mem_addr, mem_rdata, mem_wdata;
  longint unsigned frd_wdata;
  int unsigned insn, n_csr;
  logic [3:0] csr_count;
  logic [7:0][11:0] csr_addr;
  logic [7:0][63:0] csr_wmask, csr_wdata;

  initial begin
    string elf;
    if (!$value$plusargs("hartscope_elf=%s", elf)) $fatal(1, "tb_top: +hartscope_elf=PATH");
    void'($value$plusargs("fault_order=%d", fault_order));
    void'($value$plusargs("fault=%s", fault_kind));
    void'($value$plusargs("max_cycles=%d", max_cycles));
    if (fault_kind != "rd" && fault_kind != "store" && fault_kind != "load_addr" &&
        fault_kind != "pc" && fault_kind != "csr" && fault_kind != "trap")
      $fatal(1, "tb_top: +fault=%s (rd, store, load_addr, pc, csr or trap)", fault_kind);
    // The core prints the program's console output.
    core = hs_dpi_new("{\"reports\": {\"csr\": true}}");
    if (core == null) $fatal(1, "tb_top: %s", hs_last_error());
    if (hs_dpi_load_elf(core, elf) < 0) $fatal(1, "tb_top: %s", hs_last_error());
    valid = 0;
    csr_count = 0;
  end

  // Whether the fault fits this retirement (a pure function: the change is a task).
  function automatic bit fits();
    if (trap != 0 || intr != 0) return 0;
    case (fault_kind)
      "rd": return rd_addr != 0;
      "store": return mem_wmask != 0;
      "load_addr": return mem_rmask != 0;
      "pc": return 1;
      "csr": return csr_count != 0;
      "trap": return mem_rmask == 0 && mem_wmask == 0 && csr_count == 0;
      default: return 0;
    endcase
  endfunction

  task automatic put_fault();
    case (fault_kind)
      "rd": rd_wdata = rd_wdata ^ 64'h1;
      "store": mem_wdata = mem_wdata ^ 64'hff;
      "load_addr": mem_addr = mem_addr + 64'h8;
      "pc": pc_wdata = pc_wdata + 64'h4;
      "csr": csr_wdata[0] = csr_wdata[0] ^ 64'h1;
      "trap": trap = 1;
      default: ;
    endcase
  endtask

  // The core retires one instruction a cycle, between the monitor's sampling edges.
  always @(negedge clk) begin
    int st;
    cycles++;
    if (cycles > 2) reset <= 1'b0;
    if (cycles > max_cycles) begin
      $display("tb_top: %0d cycles: stopping", max_cycles);
      $finish;
    end
    if (cycles > 2) begin
      st = hs_dpi_step_rvfi(core, valid, order, insn, trap, halt, intr, mode, ixl, rd_addr,
                            rd_wdata, pc_rdata, pc_wdata, mem_addr, mem_rmask, mem_wmask,
                            mem_rdata, mem_wdata, frd_wen, frd_addr, frd_wdata, n_csr);
      if (st < 0) $fatal(1, "tb_top: %s", hs_last_error());
      if (st == 1) begin
        void'(hs_poll_exit(core, exit_code));
        $display("tb_top: the program exited with %0d", exit_code);
        $finish;
      end
      csr_count = 4'(n_csr);
      for (int i = 0; i < 8; i++) begin
        int unsigned a;
        longint unsigned m, d;
        if (i < int'(n_csr)) begin
          void'(hs_dpi_stepped_csr(core, i, a, m, d));
          csr_addr[i] = 12'(a);
          csr_wmask[i] = m;
          csr_wdata[i] = d;
        end else begin
          csr_addr[i] = 0;
          csr_wmask[i] = 0;
          csr_wdata[i] = 0;
        end
      end
      if (fault_order >= 0 && !faulted && order >= longint'(fault_order) && fits()) begin
        put_fault();
        faulted = 1;
        $display("tb_top: fault %s put into retirement %0d at pc 0x%016h", fault_kind, order,
                 pc_rdata);
      end
    end
  end

  hartscope_rvfi_monitor #(
      .CONFIG("{\"reports\": {\"csr\": true}, \"console\": \"none\"}"),
      .MAX_ERRORS(1)
  ) monitor (
      .clock(clk),
      .reset(reset),
      .rvfi_valid(valid != 0),
      .rvfi_order(order),
      .rvfi_insn(insn),
      .rvfi_trap(trap != 0),
      .rvfi_halt(halt != 0),
      .rvfi_intr(intr != 0),
      .rvfi_mode(mode[1:0]),
      .rvfi_ixl(ixl[1:0]),
      .rvfi_rs1_addr(5'd0),
      .rvfi_rs2_addr(5'd0),
      .rvfi_rs1_rdata(64'd0),
      .rvfi_rs2_rdata(64'd0),
      .rvfi_rd_addr(rd_addr[4:0]),
      .rvfi_rd_wdata(rd_wdata),
      .rvfi_pc_rdata(pc_rdata),
      .rvfi_pc_wdata(pc_wdata),
      .rvfi_mem_addr(mem_addr),
      .rvfi_mem_rmask(mem_rmask),
      .rvfi_mem_wmask(mem_wmask),
      .rvfi_mem_rdata(mem_rdata),
      .rvfi_mem_wdata(mem_wdata),
      .hs_frd_wen(frd_wen != 0),
      .hs_frd_addr(frd_addr[4:0]),
      .hs_frd_wdata(frd_wdata),
      .hs_csr_count(csr_count),
      .hs_csr_addr(csr_addr),
      .hs_csr_wmask(csr_wmask),
      .hs_csr_wdata(csr_wdata)
  );

  final if (core != null) void'(hs_free(core));
endmodule
