/* A QEMU TCG plugin that counts guest instructions executed between two
 * marker functions, for a deterministic cost of a model's run function.
 *
 *   qemu-system-arm ... -plugin libinsn_count.so,begin=0xADDR,end=0xADDR,out=FILE
 *
 * Every translated block adds its instruction count to a counter when it
 * executes (an inline add, no callback). Blocks that start at `begin` or
 * `end` (the entries of oc_mark_begin/oc_mark_end, reached only by calls)
 * also snapshot the counter; each begin..end interval is appended to FILE as
 * one line `insns=N`. The count is exact as long as no block is left half
 * way, which holds for firmware that takes no interrupts. Single vCPU only. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin_api.h"

OC_QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

static uint64_t executed;
static uint64_t begin_addr, end_addr, at_begin;
static FILE *out;

static void on_begin(unsigned int vcpu, void *userdata) {
  (void)vcpu;
  (void)userdata;
  at_begin = executed;
}

static void on_end(unsigned int vcpu, void *userdata) {
  (void)vcpu;
  (void)userdata;
  fprintf(out, "insns=%" PRIu64 "\n", executed - at_begin);
  fflush(out);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  uint64_t pc = qemu_plugin_tb_vaddr(tb);
  (void)id;
  /* The snapshot callbacks are registered first, so they run before this
   * block's own add: both markers see the counter at their entry. */
  if (pc == begin_addr) qemu_plugin_register_vcpu_tb_exec_cb(tb, on_begin, QEMU_PLUGIN_CB_NO_REGS, NULL);
  if (pc == end_addr) qemu_plugin_register_vcpu_tb_exec_cb(tb, on_end, QEMU_PLUGIN_CB_NO_REGS, NULL);
  qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &executed,
                                           qemu_plugin_tb_n_insns(tb));
}

static int parse_address(const char *arg, const char *key, uint64_t *value) {
  size_t n = strlen(key);
  if (strncmp(arg, key, n) != 0 || arg[n] != '=') return 0;
  /* Thumb function symbols carry bit 0; blocks start at the even address. */
  *value = strtoull(arg + n + 1, NULL, 0) & ~(uint64_t)1;
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
