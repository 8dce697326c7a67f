/* SPDX-License-Identifier: MIT */
/*
 * An ELF image relocating itself: the relative relocations of its dynamic
 * section applied to the image where the loader put it. baretop.efi is an
 * ELF shared object linked at 0 and converted to PE by objcopy; gnu-efi's
 * crt0 calls `_relocate(ImageBase, _DYNAMIC, ...)` before efi_main, and
 * efi/relocate.c answers it with this function.
 *
 * Two encodings, both of R_X86_64_RELATIVE (word = load base + addend):
 *  - RELA (DT_RELA/DT_RELASZ/DT_RELAENT): 24 bytes per pointer (offset,
 *    info, addend), what gnu-efi's own reloc_x86_64.c reads;
 *  - RELR (DT_RELR/DT_RELRSZ/DT_RELRENT, `ld -z pack-relative-relocs`): the
 *    SysV gABI's packed form, the addend in place. An even entry is the
 *    offset of a word to relocate, and the next word is the start of the
 *    bitmap that may follow; an odd entry is a bitmap whose bit i (1..63)
 *    relocates word i-1 from there, after which "there" moves on by 63
 *    words. As glibc applies them (elf/dynamic-link.h, ELF_DYNAMIC_DO_RELR)
 *    and the proposal defines them (generic-abi list, "Proposal for a new
 *    section type SHT_RELR", 2017). baretop's ~3,600 pointers take 1.3 KB
 *    this way instead of 86 KB.
 *
 * It runs before the image is relocated: no pointer in static data may be
 * used, nothing else may be called, and the caller must have no stack
 * protector (the canary is not set yet).
 */
#ifndef BASE_ELF_RELOC_H
#define BASE_ELF_RELOC_H

#include <stdint.h>

/* Dynamic-section tags (SysV gABI, "Dynamic Section"; RELR: 35-37). */
#define BT_DT_NULL 0
#define BT_DT_RELA 7
#define BT_DT_RELASZ 8
#define BT_DT_RELAENT 9
#define BT_DT_RELRSZ 35
#define BT_DT_RELR 36
#define BT_DT_RELRENT 37

/* x86-64 psABI relocation types (section 4.4.1). */
#define BT_R_X86_64_NONE 0
#define BT_R_X86_64_RELATIVE 8

struct bt_elf_dyn {
	int64_t tag;
	uint64_t val;
};

struct bt_elf_rela {
	uint64_t offset;
	uint64_t info;  /* type in the low 32 bits */
	int64_t addend;
};

/*
 * Applies every relative relocation `dyn` (the image's _DYNAMIC, at its
 * load address) lists to the image loaded at `base`. Returns 0, or -1 when
 * the section asks for something this cannot do (another relocation type:
 * a symbol the link left unresolved; an entry size that is not the
 * standard one; a RELR bitmap with no offset before it); the words before
 * that entry are relocated already.
 */
static inline int bt_elf_relocate(uintptr_t base, const struct bt_elf_dyn *dyn)
{
	uint64_t rela = 0, relasz = 0, relaent = sizeof(struct bt_elf_rela);
	uint64_t relr = 0, relrsz = 0, relrent = sizeof(uint64_t);

	for (; dyn->tag != BT_DT_NULL; dyn++) {
		switch (dyn->tag) {
		case BT_DT_RELA: rela = dyn->val; break;
		case BT_DT_RELASZ: relasz = dyn->val; break;
		case BT_DT_RELAENT: relaent = dyn->val; break;
		case BT_DT_RELR: relr = dyn->val; break;
		case BT_DT_RELRSZ: relrsz = dyn->val; break;
		case BT_DT_RELRENT: relrent = dyn->val; break;
		default: break;
		}
	}
	if ((relasz && relaent != sizeof(struct bt_elf_rela)) || (relrsz && relrent != sizeof(uint64_t)))
		return -1;

	for (uint64_t at = 0; at < relasz; at += sizeof(struct bt_elf_rela)) {
		const struct bt_elf_rela *r = (const struct bt_elf_rela *)(base + rela + at);

		switch ((uint32_t)r->info) {
		case BT_R_X86_64_NONE: break;
		case BT_R_X86_64_RELATIVE: *(uint64_t *)(base + r->offset) = base + (uint64_t)r->addend; break;
		default: return -1;
		}
	}

	uint64_t *where = 0;  /* no bitmap before the first offset */
	for (uint64_t at = 0; at < relrsz; at += sizeof(uint64_t)) {
		uint64_t entry = *(const uint64_t *)(base + relr + at);

		if ((entry & 1) == 0) {
			where = (uint64_t *)(base + entry);
			*where++ += base;
		} else {
			if (!where)
				return -1;
			for (unsigned i = 0; (entry >>= 1) != 0; i++)
				if (entry & 1)
					where[i] += base;
			where += 63;
		}
	}
	return 0;
}

#endif
