// hartscope's reference hart for SystemVerilog testbenches: DPI-C imports of the C ABI
// (plugin/c, library libhartscope.a or libhartscope.so; header plugin/c/include/hartscope.h).
//
// A handle is a chandle (an hs_hart *). Calls return an int status: 0 (or a count for the
// checks) when they worked, a negative HS_ERR_* when not, and hs_last_error() says what and
// where. One handle per thread. The RVFI monitor (hartscope_rvfi_monitor.sv) is the usual way
// in; these are for testbenches that drive the hart themselves.
//
// Types as DPI-C maps them: byte unsigned = uint8_t, int = int32_t, int unsigned = uint32_t,
// longint = int64_t, longint unsigned = uint64_t, string = const char *, output = a pointer.
package hartscope_pkg;

  // Status codes (hartscope.h).
  localparam int HS_OK = 0;
  localparam int HS_ERR_NULL = -1;
  localparam int HS_ERR_ARG = -2;
  localparam int HS_ERR_CONFIG = -3;
  localparam int HS_ERR_IO = -4;
  localparam int HS_ERR_ELF = -5;
  localparam int HS_ERR_ADDRESS = -6;
  localparam int HS_ERR_NO_REGISTER = -7;
  localparam int HS_ERR_RETIREMENT = -8;
  localparam int HS_ERR_PANIC = -9;
  // CSR writes one RVFI retirement carries (hs_dpi_rvfi_csr).
  localparam int HS_RVFI_MAX_CSR = 8;

  // The ABI version of the library (10000 for 1.0).
  import "DPI-C" function int unsigned hs_api_version();
  // What the last failing call of this thread went wrong with.
  import "DPI-C" function string hs_last_error();

  // A hart from settings in JSON ("" for the defaults); null when they are not valid.
  import "DPI-C" function chandle hs_dpi_new(input string config_json);
  import "DPI-C" function int hs_free(input chandle h);
  // Load an ELF file and reset the hart to its entry point.
  import "DPI-C" function int hs_dpi_load_elf(input chandle h, input string path);
  // Reset to pc in M-mode (memory stays).
  import "DPI-C" function int hs_reset(input chandle h, input longint unsigned pc);

  // State.
  import "DPI-C" function int hs_get_pc(input chandle h, output longint unsigned value);
  import "DPI-C" function int hs_set_pc(input chandle h, input longint unsigned pc);
  import "DPI-C" function int hs_privilege(input chandle h, output byte unsigned value);
  import "DPI-C" function int hs_get_x(input chandle h, input int unsigned n,
                                       output longint unsigned value);
  import "DPI-C" function int hs_set_x(input chandle h, input int unsigned n,
                                       input longint unsigned value);
  import "DPI-C" function int hs_get_f(input chandle h, input int unsigned n,
                                       output longint unsigned value);
  import "DPI-C" function int hs_set_f(input chandle h, input int unsigned n,
                                       input longint unsigned value);
  import "DPI-C" function int hs_get_csr(input chandle h, input int unsigned addr,
                                         output longint unsigned value);
  import "DPI-C" function int hs_set_csr(input chandle h, input int unsigned addr,
                                         input longint unsigned value);
  // A register by name: "a0", "x10", "fa0", "mstatus", "0x300".
  import "DPI-C" function int hs_reg_by_name(input chandle h, input string name,
                                             output longint unsigned value);

  // The hooks for what only the testbench knows.
  // Interrupt pins: mip's MSIP (bit 3), MTIP (7), MEIP (11); before the next step.
  import "DPI-C" function int hs_set_mip(input chandle h, input longint unsigned bits);
  // mtime (external time).
  import "DPI-C" function int hs_set_time(input chandle h, input longint unsigned mtime);
  // The LR reservation is lost.
  import "DPI-C" function int hs_cancel_reservation(input chandle h);
  // Raise a trap now (is_interrupt != 0: an interrupt code; else an exception code): the next
  // check takes it at the current pc, as the core did (a bus error, an NMI).
  import "DPI-C" function int hs_raise_trap(input chandle h, input int is_interrupt,
                                            input longint unsigned code,
                                            input longint unsigned tval);

  // Checking one RVFI retirement: hs_dpi_rvfi_csr for each CSR write (hartscope's CSR
  // extension, at most HS_RVFI_MAX_CSR), then hs_dpi_rvfi_check with the signals. It
  // returns the number of mismatches (each read with hs_dpi_mismatch_text) or an error.
  import "DPI-C" function int hs_dpi_rvfi_csr(input chandle h, input int unsigned addr,
                                              input longint unsigned wmask,
                                              input longint unsigned wdata);
  import "DPI-C" function int hs_dpi_rvfi_check(
      input chandle h,
      input byte unsigned valid, input longint unsigned order, input int unsigned insn,
      input byte unsigned trap, input byte unsigned halt, input byte unsigned intr,
      input byte unsigned mode, input byte unsigned ixl,
      input byte unsigned rs1_addr, input byte unsigned rs2_addr,
      input longint unsigned rs1_rdata, input longint unsigned rs2_rdata,
      input byte unsigned rd_addr, input longint unsigned rd_wdata,
      input longint unsigned pc_rdata, input longint unsigned pc_wdata,
      input longint unsigned mem_addr,
      input byte unsigned mem_rmask, input byte unsigned mem_wmask,
      input longint unsigned mem_rdata, input longint unsigned mem_wdata,
      input byte unsigned frd_wen, input byte unsigned frd_addr,
      input longint unsigned frd_wdata);
  // Mismatch i of the last check on one line: retirement order, pc, instruction and
  // disassembly, then each element with the expected (reference) and actual (core) values.
  import "DPI-C" function string hs_dpi_mismatch_text(input chandle h, input int i);
  // Compare every register (the core's as its retirements built it); mismatches as above.
  import "DPI-C" function int hs_compare_all(input chandle h);
  // Retirements that mismatched, retirements checked (or a negative error).
  import "DPI-C" function longint hs_dpi_errors(input chandle h);
  import "DPI-C" function longint hs_dpi_checked(input chandle h);
  // Record the checked retirements as a Bluespec tandem stream (hartscope tandem verify).
  import "DPI-C" function int hs_record(input chandle h, input string path);
  import "DPI-C" function int hs_finish_recording(input chandle h);

  // The hart as a stream: one step as RVFI signals (an interrupt with the first instruction
  // of its handler, intr set). Returns 0, 1 when the program had ended, or an error; its CSR
  // writes are read with hs_dpi_stepped_csr.
  import "DPI-C" function int hs_dpi_step_rvfi(
      input chandle h,
      output byte unsigned valid, output longint unsigned order, output int unsigned insn,
      output byte unsigned trap, output byte unsigned halt, output byte unsigned intr,
      output byte unsigned mode, output byte unsigned ixl,
      output byte unsigned rd_addr, output longint unsigned rd_wdata,
      output longint unsigned pc_rdata, output longint unsigned pc_wdata,
      output longint unsigned mem_addr,
      output byte unsigned mem_rmask, output byte unsigned mem_wmask,
      output longint unsigned mem_rdata, output longint unsigned mem_wdata,
      output byte unsigned frd_wen, output byte unsigned frd_addr,
      output longint unsigned frd_wdata, output int unsigned n_csr);
  import "DPI-C" function int hs_dpi_stepped_csr(input chandle h, input int unsigned i,
                                                 output int unsigned addr,
                                                 output longint unsigned wmask,
                                                 output longint unsigned wdata);
  // Whether the program has ended (1, with its exit code) or runs (0).
  import "DPI-C" function int hs_poll_exit(input chandle h, output int code);

endpackage
