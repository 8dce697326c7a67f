/* SPDX-License-Identifier: MIT */
#include "base/notes.h"
#include "tests/unit/lib/test.h"

TEST(notes_are_kept_in_order_while_there_is_room)
{
	char notes[3][40];
	int n = 0;
	unsigned dropped = 0;

	BT_NOTES_ADD(notes, n, dropped, "first %d", 1);
	BT_NOTES_ADD(notes, n, dropped, "second");
	CHECK_EQ_INT(n, 2);
	CHECK_EQ_INT(dropped, 0);
	CHECK(strcmp(notes[0], "first 1") == 0);
	CHECK(strcmp(notes[1], "second") == 0);
	BT_NOTES_ADD(notes, n, dropped, "third");
	CHECK_EQ_INT(n, 3);
	CHECK(strcmp(notes[2], "third") == 0);
	CHECK_EQ_INT(dropped, 0);
}

TEST(a_full_list_says_how_many_notes_it_did_not_keep)
{
	char notes[3][40];
	unsigned n = 0, dropped = 0;

	for (int i = 1; i <= 3; i++)
		BT_NOTES_ADD(notes, n, dropped, "note %d", i);
	/* The fourth note: the third slot now counts itself and the fourth. */
	BT_NOTES_ADD(notes, n, dropped, "note 4");
	CHECK_EQ_INT(n, 3);
	CHECK_EQ_INT(dropped, 2);
	CHECK(strcmp(notes[0], "note 1") == 0);
	CHECK(strcmp(notes[1], "note 2") == 0);
	CHECK_MSG(strcmp(notes[2], "... and 2 more notes not kept") == 0, "got '%s'", notes[2]);
	for (int i = 5; i <= 9; i++)
		BT_NOTES_ADD(notes, n, dropped, "note %d", i);
	CHECK_EQ_INT(n, 3);
	CHECK_EQ_INT(dropped, 7); /* notes 3 to 9 */
	CHECK_MSG(strcmp(notes[2], "... and 7 more notes not kept") == 0, "got '%s'", notes[2]);
	CHECK(strcmp(notes[0], "note 1") == 0);
}

TEST(a_long_note_is_cut_not_dropped)
{
	char notes[2][8];
	unsigned n = 0, dropped = 0;

	BT_NOTES_ADD(notes, n, dropped, "%s", "a note longer than its slot");
	CHECK_EQ_INT(n, 1);
	CHECK_EQ_INT(dropped, 0);
	CHECK(strcmp(notes[0], "a note ") == 0);
}

TEST(one_slot_holds_the_count_once_full)
{
	char notes[1][40];
	unsigned n = 0, dropped = 0;

	BT_NOTES_ADD(notes, n, dropped, "only");
	BT_NOTES_ADD(notes, n, dropped, "another");
	CHECK_EQ_INT(n, 1);
	CHECK(strcmp(notes[0], "... and 2 more notes not kept") == 0);
}
