/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pcb/text.h"
#include "jump_label.h"

extern struct pcb_jump_entry __start_pcb_jump_table[] __attribute__((weak));
extern struct pcb_jump_entry __stop_pcb_jump_table[] __attribute__((weak));

static const unsigned char nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

int pcb_static_key_set(struct static_key_false *key, bool enabled)
{
	for (struct pcb_jump_entry *e = __start_pcb_jump_table; e && e < __stop_pcb_jump_table; e++) {
		unsigned char insn[5];
		int rc;

		if (e->key != key)
			continue;
		if (enabled) {
			int32_t rel = (int32_t)((long)e->target - ((long)e->code + 5));

			insn[0] = 0xe9;			/* jmp rel32 */
			memcpy(insn + 1, &rel, 4);
		} else {
			memcpy(insn, nop5, 5);
		}
		rc = pcb_text_poke((void *)e->code, insn, 5);
		if (rc < 0)
			return rc;
	}
	key->enabled = enabled;
	return 0;
}

int pcb_static_key_sites(const struct static_key_false *key)
{
	int n = 0;

	for (struct pcb_jump_entry *e = __start_pcb_jump_table; e && e < __stop_pcb_jump_table; e++)
		n += e->key == key;
	return n;
}

int pcb_static_key_patchable(char *why, size_t len)
{
	struct pcb_jump_entry *e = __start_pcb_jump_table;
	int rc;

	if (!e || e >= __stop_pcb_jump_table) {
		snprintf(why, len, "no jump table in this binary");
		return -ENOENT;
	}
	/* write the site's own bytes back: a real rewrite that changes nothing */
	rc = pcb_text_poke((void *)e->code, (const void *)e->code, 5);
	if (rc < 0)
		snprintf(why, len, "mprotect() of the text refused: %s", strerror(-rc));
	return rc;
}
