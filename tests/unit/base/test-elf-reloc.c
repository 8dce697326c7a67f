/* SPDX-License-Identifier: MIT */
/*
 * base/elf-reloc.h: the relocations baretop.efi applies to itself before
 * efi_main. The RELR tables below are encoded by hand from the format's
 * definition (generic-abi proposal; glibc elf/dynamic-link.h): an even
 * word relocates the word at that offset and starts a bitmap run at the
 * next word; an odd word's bit i (1..63) relocates run word i-1, and the
 * run then moves on by 63 words. Every word of the image is checked: the
 * listed ones moved by the base, every other one untouched.
 */
#include "base/elf-reloc.h"
#include "tests/unit/lib/test.h"

#define WORDS 512
#define TABLE 400  /* the relocation tables live from this word on */

static uint64_t img[WORDS];

static uint64_t before(unsigned w)
{
	return 0x100000u + (uint64_t)w * 16;
}

static void fill(void)
{
	for (unsigned w = 0; w < TABLE; w++)
		img[w] = before(w);
}

/* Word w of the image relocated exactly when it is in want[]. */
static void check_image(const unsigned *want, unsigned n)
{
	uint64_t base = (uint64_t)(uintptr_t)img;

	for (unsigned w = 0; w < TABLE; w++) {
		bool listed = false;
		for (unsigned i = 0; i < n; i++)
			listed |= want[i] == w;
		CHECK_MSG(img[w] == before(w) + (listed ? base : 0), "word %u: 0x%llx, %s", w,
			  (unsigned long long)img[w], listed ? "relocated expected" : "untouched expected");
	}
}

static int relocate_relr(const uint64_t *relr, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		img[TABLE + i] = relr[i];
	const struct bt_elf_dyn dyn[] = {
		{ BT_DT_RELR, TABLE * 8 }, { BT_DT_RELRSZ, n * 8 }, { BT_DT_RELRENT, 8 }, { BT_DT_NULL, 0 },
	};
	return bt_elf_relocate((uintptr_t)img, dyn);
}

TEST(relr_offsets_and_bitmaps)
{
	/* words 1, 2, 3, 5, 64, 65, 130, 200 */
	const uint64_t relr[] = {
		1 * 8,      /* word 1; run from word 2 */
		0x17,       /* bits 1, 2, 4: words 2, 3, 5; run from word 65 */
		64 * 8,     /* word 64 lies before the run: an offset; run from 65 */
		0x3,        /* bit 1: word 65; run from 128 */
		0x9,        /* bit 3: word 130; run from 191 */
		200 * 8,    /* word 200 */
	};
	const unsigned want[] = { 1, 2, 3, 5, 64, 65, 130, 200 };

	fill();
	CHECK_EQ_INT(relocate_relr(relr, 6), 0);
	check_image(want, 8);
}

TEST(relr_full_bitmap_and_its_last_bit)
{
	/* word 0, then every bit of a bitmap: words 1..63; then only bit 63 of
	 * the next: word 64 + 62 = 126 */
	const uint64_t relr[] = { 0, ~0ull, 0x8000000000000001ull };
	unsigned want[65];

	for (unsigned w = 0; w <= 63; w++)
		want[w] = w;
	want[64] = 126;
	fill();
	CHECK_EQ_INT(relocate_relr(relr, 3), 0);
	check_image(want, 65);
}

TEST(relr_bitmap_before_any_offset_is_refused)
{
	const uint64_t relr[] = { 0x3 };

	fill();
	CHECK_EQ_INT(relocate_relr(relr, 1), -1);
	check_image(NULL, 0);
}

static void put_rela(unsigned at, uint64_t offset, uint64_t info, int64_t addend)
{
	img[TABLE + 3 * at] = offset;
	img[TABLE + 3 * at + 1] = info;
	img[TABLE + 3 * at + 2] = (uint64_t)addend;
}

TEST(rela_relative_is_base_plus_addend_and_none_is_skipped)
{
	uint64_t base = (uint64_t)(uintptr_t)img;
	const struct bt_elf_dyn dyn[] = {
		{ BT_DT_RELA, TABLE * 8 }, { BT_DT_RELASZ, 3 * 24 }, { BT_DT_RELAENT, 24 }, { BT_DT_NULL, 0 },
	};

	fill();
	/* the psABI's B + A: the addend from the entry, not from the word */
	put_rela(0, 7 * 8, BT_R_X86_64_RELATIVE, 0x1234);
	put_rela(1, 9 * 8, BT_R_X86_64_NONE, 0x5678);
	put_rela(2, 11 * 8, (uint64_t)5 << 32 | BT_R_X86_64_RELATIVE, 0);  /* symbol index ignored */
	CHECK_EQ_INT(bt_elf_relocate((uintptr_t)img, dyn), 0);
	CHECK_EQ_U64(img[7], base + 0x1234);
	CHECK_EQ_U64(img[9], before(9));
	CHECK_EQ_U64(img[11], base);
	img[7] = before(7);
	img[11] = before(11);
	check_image(NULL, 0);
}

TEST(rela_and_relr_together)
{
	const struct bt_elf_dyn dyn[] = {
		{ BT_DT_RELA, TABLE * 8 }, { BT_DT_RELASZ, 24 }, { BT_DT_RELAENT, 24 },
		{ BT_DT_RELR, (TABLE + 3) * 8 }, { BT_DT_RELRSZ, 16 }, { BT_DT_RELRENT, 8 }, { BT_DT_NULL, 0 },
	};

	fill();
	put_rela(0, 40 * 8, BT_R_X86_64_RELATIVE, (int64_t)before(40));
	img[TABLE + 3] = 20 * 8;  /* word 20; run from 21 */
	img[TABLE + 4] = 0x5;     /* bit 2: word 22 */
	CHECK_EQ_INT(bt_elf_relocate((uintptr_t)img, dyn), 0);
	check_image((const unsigned[]){ 20, 22, 40 }, 3);
}

TEST(unknown_types_and_entry_sizes_are_refused)
{
	const struct bt_elf_dyn rela64[] = {
		{ BT_DT_RELA, TABLE * 8 }, { BT_DT_RELASZ, 24 }, { BT_DT_RELAENT, 24 }, { BT_DT_NULL, 0 },
	};
	const struct bt_elf_dyn short_rela[] = {
		{ BT_DT_RELA, TABLE * 8 }, { BT_DT_RELASZ, 16 }, { BT_DT_RELAENT, 16 }, { BT_DT_NULL, 0 },
	};
	const struct bt_elf_dyn short_relr[] = {
		{ BT_DT_RELR, TABLE * 8 }, { BT_DT_RELRSZ, 8 }, { BT_DT_RELRENT, 4 }, { BT_DT_NULL, 0 },
	};

	fill();
	put_rela(0, 3 * 8, 1 /* R_X86_64_64: needs a symbol */, 0);
	CHECK_EQ_INT(bt_elf_relocate((uintptr_t)img, rela64), -1);
	CHECK_EQ_INT(bt_elf_relocate((uintptr_t)img, short_rela), -1);
	img[TABLE] = 3 * 8;
	CHECK_EQ_INT(bt_elf_relocate((uintptr_t)img, short_relr), -1);
	check_image(NULL, 0);
}

TEST(no_relocations_is_success)
{
	const struct bt_elf_dyn dyn[] = { { BT_DT_RELA, 0 }, { BT_DT_RELASZ, 0 }, { BT_DT_RELAENT, 24 }, { BT_DT_NULL, 0 } };

	fill();
	CHECK_EQ_INT(bt_elf_relocate((uintptr_t)img, dyn), 0);
	check_image(NULL, 0);
}
