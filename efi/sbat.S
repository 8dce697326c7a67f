/* SPDX-License-Identifier: MIT */
/*
 * The .sbat section shim requires of every image it loads ("SBAT is
 * mandatory": pe.c verify_sbat_section refuses an image without one under
 * any SbatLevel). Its format (shim's SBAT.md, parsed by sbat.c and csv.c):
 * ASCII comma-separated lines, six non-empty fields each (component_name,
 * component_generation, vendor_name, vendor_package_name, vendor_version,
 * vendor_url), ended by LF; the parser stops at the first NUL, so the text
 * holds none and the section's file padding supplies them. The first line
 * names the SBAT format version itself; the second is baretop's component,
 * its generation and version from app/version.h (one source of truth), and
 * its vendor_url, the home of the tree built (the Makefile's SBAT_URL;
 * app/version.h BT_SBAT_URL). A distribution that signs its own build
 * adds its own line after it (SBAT.md, "vendor_name.package").
 *
 * The section is allocated, read-only data without relocations (shim
 * refuses a .sbat with relocations) and page-aligned, so the PE section
 * objcopy makes from it starts on a SectionAlignment boundary. Where ld
 * puts it (after .dynstr, which the PE does not keep) and that the image
 * reads back well-formed is checked by tests/suite/65-boot-image.sh.
 */
#include "app/version.h"

	/* "R" (SHF_GNU_RETAIN): nothing refers to it, and the link drops
	 * unreferenced sections (--gc-sections, Makefile). */
	.section .sbat, "aR", @progbits
	.balign	4096
	/* A local name for the map file and nm (no code refers to it). */
	.type	bt_sbat_text, @object
bt_sbat_text:
	.ascii	"sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
	.ascii	"baretop,", BT_SBAT_GENERATION, ",baretop,baretop,", BT_VERSION, ",", BT_SBAT_URL, "\n"
	.size	bt_sbat_text, . - bt_sbat_text

	.section .note.GNU-stack, "", @progbits
