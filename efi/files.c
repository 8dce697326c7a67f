/* SPDX-License-Identifier: MIT */
/*
 * Files for newlib: open/read/write/lseek/close/fstat/stat/unlink/mkdir and
 * rename over EFI_SIMPLE_FILE_SYSTEM_PROTOCOL on the volume baretop.efi was
 * loaded from. Paths use '/' or '\'; an absolute path starts at that
 * volume's root, a relative one at the directory of baretop.efi.
 *
 * rename() never replaces an existing file (it fails with EEXIST): baretop
 * writes results to a temporary name and renames it into place, and a
 * result must never overwrite an earlier one. On FAT the rename is one
 * directory-entry update (EFI_FILE_INFO.FileName through SetInfo).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "efi/efi-state.h"

#define MAX_FILES 32
#define FIRST_FD 3            /* 0-2 are the console */
#define PATH_MAX_CHARS 260
#define INFO_BUF_SIZE (SIZE_OF_EFI_FILE_INFO + PATH_MAX_CHARS * sizeof(CHAR16))

struct efi_file {
	EFI_FILE_HANDLE h;
	bool append;
	bool writable;   /* opened for writing: Flush() is meaningful */
};

/* The open files of the program, indexed by descriptor: newlib's system
 * calls reach them by number only, so this table is process state (one
 * program, touched by the BSP only: APs never do file I/O). */
static struct efi_file files[MAX_FILES];

/* Declarations for the system calls newlib expects (MISSING_SYSCALL_NAMES:
 * the names without a leading underscore). */
int open(const char *path, int flags, ...);
int close(int fd);
int read(int fd, void *buf, size_t n);
int write(int fd, const void *buf, size_t n);
off_t lseek(int fd, off_t off, int whence);
int fstat(int fd, struct stat *st);
int stat(const char *path, struct stat *st);
int unlink(const char *path);
int mkdir(const char *path, mode_t mode);
int rename(const char *from, const char *to);
int isatty(int fd);

void bt_efi_files_init(void)
{
	memset(files, 0, sizeof(files));
}

void bt_efi_files_close_all(void)
{
	for (int i = 0; i < MAX_FILES; i++) {
		if (files[i].h) {
			if (files[i].writable)
				files[i].h->Flush(files[i].h);
			files[i].h->Close(files[i].h);
			files[i].h = NULL;
		}
	}
}

static int fail(int err)
{
	errno = err;
	return -1;
}

/* UTF-8 path -> "\dir\file" from the volume root, normalising separators,
 * "." and "..". Returns 0, or an errno value. */
static int to_efi_path(const char *path, CHAR16 *out, size_t cap)
{
	char joined[2 * PATH_MAX_CHARS];
	size_t n = 0;

	if (!path || !*path)
		return ENOENT;
	if (path[0] == '/' || path[0] == '\\')
		snprintf(joined, sizeof(joined), "%s", path);
	else
		snprintf(joined, sizeof(joined), "%s\\%s", bt_efi.app_dir, path);

	/* Walk the components, keeping the start of each in `starts` so
	 * ".." can drop the last one. */
	size_t starts[64];
	int depth = 0;
	const char *p = joined;

	while (*p) {
		while (*p == '/' || *p == '\\')
			p++;
		if (!*p)
			break;
		const char *q = p;
		while (*q && *q != '/' && *q != '\\')
			q++;
		size_t len = (size_t)(q - p);

		if (len == 1 && p[0] == '.') {
			/* nothing */
		} else if (len == 2 && p[0] == '.' && p[1] == '.') {
			if (depth > 0)
				n = starts[--depth];
		} else {
			if (depth == 64 || n + 1 + len + 1 > cap)
				return ENAMETOOLONG;
			starts[depth++] = n;
			out[n++] = L'\\';
			for (size_t i = 0; i < len; i++) {
				unsigned char c = (unsigned char)p[i];
				/* FAT long names are UCS-2; baretop only writes
				 * ASCII names, so other bytes are refused. */
				if (c < 0x20 || c >= 0x7f)
					return EINVAL;
				out[n++] = c;
			}
		}
		p = q;
	}
	if (n == 0)
		out[n++] = L'\\';
	out[n] = 0;
	return 0;
}

static EFI_FILE_INFO *file_info(EFI_FILE_HANDLE h, void *buf)
{
	UINTN size = INFO_BUF_SIZE;

	if (h->GetInfo(h, &gEfiFileInfoGuid, &size, buf) != EFI_SUCCESS)
		return NULL;
	return buf;
}

static EFI_STATUS open_path(const char *path, UINT64 mode, UINT64 attr, EFI_FILE_HANDLE *ret,
			    int *err)
{
	CHAR16 p[PATH_MAX_CHARS];
	EFI_STATUS st;

	if (!bt_efi.root) {
		*err = ENXIO;
		return bt_efi.root_status ? bt_efi.root_status : EFI_NOT_FOUND;
	}
	*err = to_efi_path(path, p, PATH_MAX_CHARS);
	if (*err)
		return EFI_INVALID_PARAMETER;
	st = bt_efi.root->Open(bt_efi.root, ret, p, mode, attr);
	if (st != EFI_SUCCESS)
		*err = bt_efi_errno(st);
	return st;
}

static struct efi_file *lookup(int fd)
{
	if (fd < FIRST_FD || fd >= FIRST_FD + MAX_FILES || !files[fd - FIRST_FD].h)
		return NULL;
	return &files[fd - FIRST_FD];
}

int open(const char *path, int flags, ...)
{
	EFI_FILE_HANDLE h;
	UINT64 mode = EFI_FILE_MODE_READ;
	int acc = flags & O_ACCMODE, err, slot;
	uint8_t infobuf[INFO_BUF_SIZE];

	for (slot = 0; slot < MAX_FILES && files[slot].h; slot++)
		;
	if (slot == MAX_FILES)
		return fail(EMFILE);
	if (acc != O_RDONLY)
		mode |= EFI_FILE_MODE_WRITE;
	if (flags & O_CREAT) {
		if (flags & O_EXCL) {
			if (open_path(path, EFI_FILE_MODE_READ, 0, &h, &err) == EFI_SUCCESS) {
				h->Close(h);
				return fail(EEXIST);
			}
		}
		mode |= EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE;
	}
	if (open_path(path, mode, 0, &h, &err) != EFI_SUCCESS)
		return fail(err);

	EFI_FILE_INFO *info = file_info(h, infobuf);
	if (info && (info->Attribute & EFI_FILE_DIRECTORY) && acc != O_RDONLY) {
		h->Close(h);
		return fail(EISDIR);
	}
	if ((flags & O_TRUNC) && acc != O_RDONLY && info && info->FileSize) {
		info->FileSize = 0;
		/* Zero times mean "leave them to the driver" (UEFI spec,
		 * EFI_FILE_INFO); passing the old ones back would keep a stale
		 * modification time on the truncated file. */
		memset(&info->CreateTime, 0, sizeof(info->CreateTime));
		memset(&info->LastAccessTime, 0, sizeof(info->LastAccessTime));
		memset(&info->ModificationTime, 0, sizeof(info->ModificationTime));
		EFI_STATUS st = h->SetInfo(h, &gEfiFileInfoGuid, info->Size, info);
		if (st != EFI_SUCCESS) {
			h->Close(h);
			return fail(bt_efi_errno(st));
		}
	}
	files[slot].h = h;
	files[slot].append = flags & O_APPEND;
	files[slot].writable = acc != O_RDONLY;
	return slot + FIRST_FD;
}

int close(int fd)
{
	struct efi_file *f = lookup(fd);
	EFI_STATUS st;

	if (fd >= 0 && fd < FIRST_FD)
		return 0;
	if (!f)
		return fail(EBADF);
	/* EDK2's FAT Flush refuses read-only handles (EFI_ACCESS_DENIED). */
	st = f->writable ? f->h->Flush(f->h) : EFI_SUCCESS;
	EFI_STATUS st2 = f->h->Close(f->h);
	f->h = NULL;
	if (st == EFI_SUCCESS)
		st = st2;
	return st == EFI_SUCCESS ? 0 : fail(bt_efi_errno(st));
}

int read(int fd, void *buf, size_t n)
{
	struct efi_file *f = lookup(fd);
	UINTN size = n;
	EFI_STATUS st;

	if (fd == 0)
		return 0; /* no console input: baretop runs unattended */
	if (!f)
		return fail(EBADF);
	st = f->h->Read(f->h, &size, buf);
	return st == EFI_SUCCESS ? (int)size : fail(bt_efi_errno(st));
}

int write(int fd, const void *buf, size_t n)
{
	struct efi_file *f;
	UINTN size = n;
	EFI_STATUS st;

	if (fd == 1 || fd == 2) {
		bt_efi_console_write(buf, n);
		return (int)n;
	}
	f = lookup(fd);
	if (!f)
		return fail(EBADF);
	if (f->append)
		f->h->SetPosition(f->h, 0xFFFFFFFFFFFFFFFFull); /* end of file */
	st = f->h->Write(f->h, &size, (void *)buf);
	if (st != EFI_SUCCESS && size == 0)
		return fail(bt_efi_errno(st));
	return (int)size;
}

off_t lseek(int fd, off_t off, int whence)
{
	struct efi_file *f = lookup(fd);
	UINT64 pos;
	uint8_t infobuf[INFO_BUF_SIZE];

	if (!f)
		return fail(fd >= 0 && fd < FIRST_FD ? ESPIPE : EBADF);
	switch (whence) {
	case SEEK_SET:
		pos = 0;
		break;
	case SEEK_CUR:
		if (f->h->GetPosition(f->h, &pos) != EFI_SUCCESS)
			return fail(EIO);
		break;
	case SEEK_END: {
		EFI_FILE_INFO *info = file_info(f->h, infobuf);
		if (!info)
			return fail(EIO);
		pos = info->FileSize;
		break;
	}
	default:
		return fail(EINVAL);
	}
	if (off < 0 && (UINT64)-off > pos)
		return fail(EINVAL);
	pos += off;
	if (f->h->SetPosition(f->h, pos) != EFI_SUCCESS)
		return fail(EIO);
	return (off_t)pos;
}

static void fill_stat(const EFI_FILE_INFO *info, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_size = (off_t)info->FileSize;
	st->st_mode = (info->Attribute & EFI_FILE_DIRECTORY) ? S_IFDIR | 0755 : S_IFREG | 0644;
	if (info->Attribute & EFI_FILE_READ_ONLY)
		st->st_mode &= ~0222;
	st->st_nlink = 1;
	st->st_blksize = 512;
}

int fstat(int fd, struct stat *st)
{
	struct efi_file *f = lookup(fd);
	uint8_t infobuf[INFO_BUF_SIZE];

	if (fd >= 0 && fd < FIRST_FD) {
		memset(st, 0, sizeof(*st));
		st->st_mode = S_IFCHR;
		return 0;
	}
	if (!f)
		return fail(EBADF);
	EFI_FILE_INFO *info = file_info(f->h, infobuf);
	if (!info)
		return fail(EIO);
	fill_stat(info, st);
	return 0;
}

int stat(const char *path, struct stat *st)
{
	EFI_FILE_HANDLE h;
	int err;
	uint8_t infobuf[INFO_BUF_SIZE];

	if (open_path(path, EFI_FILE_MODE_READ, 0, &h, &err) != EFI_SUCCESS)
		return fail(err);
	EFI_FILE_INFO *info = file_info(h, infobuf);
	h->Close(h);
	if (!info)
		return fail(EIO);
	fill_stat(info, st);
	return 0;
}

int isatty(int fd)
{
	return fd >= 0 && fd < FIRST_FD;
}

int unlink(const char *path)
{
	EFI_FILE_HANDLE h;
	int err;

	if (open_path(path, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0, &h, &err) != EFI_SUCCESS)
		return fail(err);
	/* Delete() closes the handle, also when it fails. */
	return h->Delete(h) == EFI_SUCCESS ? 0 : fail(EACCES);
}

/* Free bytes on the volume and its allocation unit, from
 * EFI_FILE_SYSTEM_INFO; false if the driver does not say. */
static bool volume_space(UINT64 *ret_free, UINT32 *ret_block)
{
	uint8_t buf[SIZE_OF_EFI_FILE_SYSTEM_INFO + 64 * sizeof(CHAR16)];
	UINTN size = sizeof(buf);
	EFI_FILE_SYSTEM_INFO *fs = (EFI_FILE_SYSTEM_INFO *)buf;

	if (!bt_efi.root ||
	    bt_efi.root->GetInfo(bt_efi.root, &gEfiFileSystemInfoGuid, &size, buf) != EFI_SUCCESS)
		return false;
	*ret_free = fs->FreeSpace;
	*ret_block = fs->BlockSize;
	return true;
}

bt_status bt_efi_volume_free(const char *path, uint64_t *ret_bytes)
{
	UINT64 free_bytes;
	UINT32 block;

	(void)path; /* results are always on the boot volume */
	if (!volume_space(&free_bytes, &block))
		return BT_ERR_UNSUPPORTED;
	*ret_bytes = free_bytes;
	return BT_OK;
}

int mkdir(const char *path, mode_t mode)
{
	EFI_FILE_HANDLE h;
	UINT64 free_bytes;
	UINT32 block;
	int err;

	(void)mode;
	if (open_path(path, EFI_FILE_MODE_READ, 0, &h, &err) == EFI_SUCCESS) {
		h->Close(h);
		return fail(EEXIST);
	}
	/* A directory needs a cluster of its own. On a full FAT volume EDK2's
	 * driver writes the directory entry before it finds there is no
	 * cluster for it, and leaves an entry pointing at cluster 0 (the
	 * root), which loops every program that walks the tree. So refuse
	 * up front. */
	if (volume_space(&free_bytes, &block) && free_bytes < (block ? block : 512))
		return fail(ENOSPC);
	if (open_path(path, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE,
		      EFI_FILE_DIRECTORY, &h, &err) != EFI_SUCCESS)
		return fail(err);
	h->Close(h);
	return 0;
}

int rename(const char *from, const char *to)
{
	EFI_FILE_HANDLE h;
	CHAR16 target[PATH_MAX_CHARS];
	uint8_t infobuf[INFO_BUF_SIZE];
	int err;
	EFI_STATUS st;

	err = to_efi_path(to, target, PATH_MAX_CHARS);
	if (err)
		return fail(err);
	if (open_path(to, EFI_FILE_MODE_READ, 0, &h, &err) == EFI_SUCCESS) {
		h->Close(h);
		return fail(EEXIST); /* never replace: see the top of this file */
	}
	if (open_path(from, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0, &h, &err) != EFI_SUCCESS)
		return fail(err);
	EFI_FILE_INFO *info = file_info(h, infobuf);
	if (!info) {
		h->Close(h);
		return fail(EIO);
	}
	/* A FileName starting with '\' is taken from the volume root, so the
	 * file can move between directories (UEFI spec, EFI_FILE_INFO). */
	size_t len = 0;
	while (target[len])
		len++;
	memcpy(info->FileName, target, (len + 1) * sizeof(CHAR16));
	info->Size = SIZE_OF_EFI_FILE_INFO + (len + 1) * sizeof(CHAR16);
	st = h->SetInfo(h, &gEfiFileInfoGuid, info->Size, info);
	EFI_STATUS st2 = h->Close(h);
	if (st == EFI_SUCCESS)
		st = st2;
	return st == EFI_SUCCESS ? 0 : fail(bt_efi_errno(st));
}
