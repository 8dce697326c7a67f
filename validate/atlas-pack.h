/* SPDX-License-Identifier: MIT */
/*
 * The atlas's built-in event lists packed: what tools/gen-atlas writes into
 * validate/gen/atlas-lists.c from Intel's perfmon core lists (read with
 * bt_atlas_list_load, the --events-file reader) and atlas-builtin.c
 * unpacks into the same struct bt_atlas_list that reader gives
 * (tests/unit/validate/test-atlas-builtin.c compares them field by field).
 *
 * Why packed: the lists of the parts baretop has models for hold 6,700
 * events, 3,200 of them distinct (a name with its encoding: SPR, EMR and
 * GNR share most), with 200 KB of names; written out as struct bt_event
 * they would not fit baretop.efi's 1 MiB. Packed:
 *   - names are tokens joined by '.': "OCR" "DEMAND_DATA_RD" "L3_HIT" ...;
 *     each token once in one pool, a name is its token count and the
 *     tokens' numbers (one byte below 128, else two) in a byte stream,
 *     each distinct name once;
 *   - an event is 6 bytes: its name's offset in that stream, event code,
 *     umask, and the index of its rarer fields (code2, umask_ext, cmask,
 *     flags, counters, extra MSR), each distinct combination once;
 *   - a part's list is the indices of its events in the file's order, as
 *     runs of consecutive indices (a list's new events are numbered in its
 *     order, and most parts follow their predecessor's order).
 * No descriptions: the names and encodings only.
 */
#ifndef VALIDATE_ATLAS_PACK_H
#define VALIDATE_ATLAS_PACK_H

#include <stdint.h>

/* flags: BT_EVF_INV .. BT_EVF_ALONE (base/event.h, bits 0-4) and: */
#define BT_ATLAS_PACK_DEPRECATED 0x80  /* "Deprecated": "1" */

/* The rarer fields of an event; each distinct combination once. */
struct bt_atlas_pack_enc {
	uint8_t code2, umask_ext, cmask, flags;
	uint8_t ctr;      /* index in bt_atlas_pack_ctrs[] */
	uint16_t msr;     /* index in bt_atlas_pack_msr_index/_value[]; 0: no extra MSR */
};

struct bt_atlas_pack_ctr {
	uint32_t counters, counters_ht_off;
	int8_t fixed;     /* or BT_EV_NO_FIXED */
};

struct bt_atlas_pack_event {
	uint16_t name;    /* offset in bt_atlas_pack_names[] */
	uint8_t code, umask;
	uint16_t enc;     /* index in bt_atlas_pack_encs[] */
};

/* One built-in list, per model id (SPR and SPR-HBM share one). */
struct bt_atlas_pack_list {
	const char *model;    /* metrics/recipes.c id: "SPR" */
	const char *list;     /* "sapphirerapids core" */
	const char *file;     /* relative to the reference root */
	const char *version;  /* Header.Version of the file it was made from */
	uint16_t n;           /* events */
	uint16_t runs;
	/* the events in the file's order, as runs of consecutive indices in
	 * bt_atlas_pack_events[]: first, count; first, count; ... */
	const uint16_t *events;
};

extern const char bt_atlas_pack_tokens[];       /* NUL-terminated tokens */
extern const uint16_t bt_atlas_pack_token_off[];
extern const uint16_t bt_atlas_pack_n_tokens;
extern const uint8_t bt_atlas_pack_names[];     /* count, token numbers; per name */
extern const struct bt_atlas_pack_enc bt_atlas_pack_encs[];
extern const struct bt_atlas_pack_ctr bt_atlas_pack_ctrs[];
/* extra MSRs: MSRIndex (the first, if two) and MSRValue; entry 0 is none */
extern const uint16_t bt_atlas_pack_msr_index[];
extern const uint64_t bt_atlas_pack_msr_value[];
extern const struct bt_atlas_pack_event bt_atlas_pack_events[];
extern const struct bt_atlas_pack_list bt_atlas_pack_lists[];
extern const unsigned bt_atlas_pack_n_lists;
extern const char bt_atlas_pack_parts[];        /* the model ids, ", "-separated */

#endif
