/* A QEMU TCG plugin that counts guest instructions executed between two
 * marker functions, for a deterministic cost of a model's run function, and
 * a Cortex-M4 cycle estimate beside it (m4_cycles.h).
 *
 *   qemu-system-arm ... -plugin libinsn_count.so,begin=0xADDR,end=0xADDR,out=FILE[,steps=FILE]
 *
 * Every translated block adds its instruction count and its estimated cycles
 * to two counters when it executes (inline adds, no callback). Blocks that
 * start at `begin` or `end` (the entries of oc_mark_begin/oc_mark_end,
 * reached only by calls) also snapshot the counters; each begin..end interval
 * is appended to FILE as one line `insns=N cycles=C`. The count is exact as
 * long as no block is left half way, which holds for firmware that takes no
 * interrupts. Single vCPU only.
 *
 * steps=FILE (lines "0xADDR NAME", the entries of the statement functions in
 * run order): a per-statement profile. Every block executed inside an
 * interval is charged to the statement whose entry ran last (the kernels it
 * calls included); after each interval, one line per statement
 * `step NAME insns=N cycles=C` follows. Blocks then take a callback, which
 * is slower. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "m4_cycles.h"
#include "plugin_api.h"

OC_QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

enum { kMaxSteps = 4096, kMaxBlockBytes = 4096 };

static uint64_t executed, cycles;
static uint64_t begin_addr, end_addr, at_begin, cycles_at_begin;
static FILE *out;

/* The per-statement profile. */
static int profiling, in_interval;
static size_t num_steps;
static uint64_t step_addr[kMaxSteps];
static char *step_name[kMaxSteps];
static uint64_t step_insns[kMaxSteps], step_cycles[kMaxSteps];
static size_t current_step = (size_t)-1;

typedef struct {
  uint64_t insns, cycles;
} block_cost;

static void on_begin(unsigned int vcpu, void *userdata) {
  (void)vcpu;
  (void)userdata;
  at_begin = executed;
  cycles_at_begin = cycles;
  in_interval = 1;
  current_step = (size_t)-1;
  memset(step_insns, 0, sizeof step_insns);
  memset(step_cycles, 0, sizeof step_cycles);
}

static void on_end(unsigned int vcpu, void *userdata) {
  size_t i;
  (void)vcpu;
  (void)userdata;
  in_interval = 0;
  fprintf(out, "insns=%" PRIu64 " cycles=%" PRIu64 "\n", executed - at_begin, cycles - cycles_at_begin);
  for (i = 0; profiling && i < num_steps; ++i) {
    if (step_insns[i] != 0) {
      fprintf(out, "step %s insns=%" PRIu64 " cycles=%" PRIu64 "\n", step_name[i], step_insns[i], step_cycles[i]);
    }
  }
  fflush(out);
}

static void on_step(unsigned int vcpu, void *userdata) {
  (void)vcpu;
  current_step = (size_t)(uintptr_t)userdata;
}

static void on_block(unsigned int vcpu, void *userdata) {
  const block_cost *cost = (const block_cost *)userdata;
  (void)vcpu;
  if (!in_interval || current_step >= num_steps) return;
  step_insns[current_step] += cost->insns;
  step_cycles[current_step] += cost->cycles;
}

/* The block's Thumb code, copied instruction by instruction. */
static uint64_t block_cycles(struct qemu_plugin_tb *tb) {
  uint8_t code[kMaxBlockBytes];
  size_t n = qemu_plugin_tb_n_insns(tb), used = 0, i;
  for (i = 0; i < n; ++i) {
    struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
    size_t size = qemu_plugin_insn_size(insn);
    if (used + size > sizeof code) break;
    memcpy(code + used, qemu_plugin_insn_data(insn), size);
    used += size;
  }
  return oc_m4_block_cycles(code, used);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  uint64_t pc = qemu_plugin_tb_vaddr(tb);
  const uint64_t n = qemu_plugin_tb_n_insns(tb), c = block_cycles(tb);
  size_t i;
  (void)id;
  /* The snapshot callbacks are registered first, so they run before this
   * block's own adds: both markers see the counters at their entry. */
  if (pc == begin_addr) qemu_plugin_register_vcpu_tb_exec_cb(tb, on_begin, QEMU_PLUGIN_CB_NO_REGS, NULL);
  if (pc == end_addr) qemu_plugin_register_vcpu_tb_exec_cb(tb, on_end, QEMU_PLUGIN_CB_NO_REGS, NULL);
  qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &executed, n);
  qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &cycles, c);
  if (!profiling) return;
  for (i = 0; i < num_steps; ++i) {
    if (step_addr[i] == pc) {
      qemu_plugin_register_vcpu_tb_exec_cb(tb, on_step, QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)i);
    }
  }
  {
    /* Translation happens once per block: its cost lives until QEMU exits. */
    block_cost *cost = malloc(sizeof *cost);
    if (cost == NULL) return;
    cost->insns = n;
    cost->cycles = c;
    qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block, QEMU_PLUGIN_CB_NO_REGS, cost);
  }
}

static int parse_address(const char *arg, const char *key, uint64_t *value) {
  size_t n = strlen(key);
  if (strncmp(arg, key, n) != 0 || arg[n] != '=') return 0;
  /* Thumb function symbols carry bit 0; blocks start at the even address. */
  *value = strtoull(arg + n + 1, NULL, 0) & ~(uint64_t)1;
  return 1;
}

static int read_steps(const char *path) {
  char line[512];
  FILE *f = fopen(path, "r");
  if (f == NULL) return 0;
  while (num_steps < kMaxSteps && fgets(line, sizeof line, f) != NULL) {
    char name[448];
    unsigned long long addr;
    if (sscanf(line, "%llx %447s", &addr, name) != 2) continue;
    step_addr[num_steps] = (uint64_t)addr & ~(uint64_t)1;
    step_name[num_steps] = strdup(name);
    if (step_name[num_steps] == NULL) break;
    num_steps++;
  }
  fclose(f);
  return 1;
}

OC_QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info_t *info,
                                              int argc, char **argv) {
  const char *path = NULL;
  int i;
  (void)info;
  for (i = 0; i < argc; ++i) {
    if (parse_address(argv[i], "begin", &begin_addr) || parse_address(argv[i], "end", &end_addr)) continue;
    if (strncmp(argv[i], "out=", 4) == 0) {
      path = argv[i] + 4;
      continue;
    }
    if (strncmp(argv[i], "steps=", 6) == 0) {
      if (!read_steps(argv[i] + 6)) {
        fprintf(stderr, "insn_count: cannot read '%s'\n", argv[i] + 6);
        return -1;
      }
      profiling = 1;
      continue;
    }
    fprintf(stderr, "insn_count: unknown argument '%s'\n", argv[i]);
    return -1;
  }
  if (path == NULL || begin_addr == 0 || end_addr == 0) {
    fprintf(stderr, "insn_count: needs begin=ADDR,end=ADDR,out=FILE\n");
    return -1;
  }
  out = fopen(path, "w");
  if (out == NULL) {
    fprintf(stderr, "insn_count: cannot write '%s'\n", path);
    return -1;
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
  return 0;
}
