// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmx-jpegd's sandbox: no root, no new privileges, no core dumps, and a
 * hand-written seccomp-BPF allowlist of the few system calls a decode
 * needs (measured with strace: see Documentation/mmx-compress.rst).
 */

#define _GNU_SOURCE

#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include "jpegd.h"
#include "mmx_decode.h"

#if defined(__x86_64__)
#define JPEGD_AUDIT_ARCH	AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define JPEGD_AUDIT_ARCH	AUDIT_ARCH_AARCH64
#endif

#define NOBODY	65534

void jpegd_close_from(int first)
{
	long max;
	int fd;

#ifdef SYS_close_range
	if (syscall(SYS_close_range, (unsigned int)first, ~0u, 0u) == 0)
		return;
#endif
	max = sysconf(_SC_OPEN_MAX);
	if (max < 0 || max > 65536)
		max = 65536;
	for (fd = first; fd < max; fd++)
		close(fd);
}

static int parse_user(const char *user, uid_t *uid, gid_t *gid)
{
	struct passwd *pw;
	char *end;
	unsigned long v;

	*uid = NOBODY;
	*gid = NOBODY;
	if (!user)
		return 0;
	errno = 0;
	v = strtoul(user, &end, 10);
	if (*user && !*end && !errno && v > 0 && v < UINT_MAX) {
		*uid = v;
		*gid = v;
		return 0;
	}
	pw = getpwnam(user);
	if (!pw || pw->pw_uid == 0 || pw->pw_gid == 0) {
		fprintf(stderr, "mmx-jpegd: no unprivileged user '%s'\n",
			user);
		return -EINVAL;
	}
	*uid = pw->pw_uid;
	*gid = pw->pw_gid;
	return 0;
}

static int drop_root(const char *user)
{
	uid_t uid, ruid, euid, suid;
	gid_t gid, rgid, egid, sgid;
	int ret;

	if (getuid() != 0 && geteuid() != 0)
		return 0;	/* not root: nothing to drop */
	ret = parse_user(user, &uid, &gid);
	if (ret)
		return ret;
	if (setgroups(0, NULL) || setresgid(gid, gid, gid) ||
	    setresuid(uid, uid, uid)) {
		ret = -errno;
		fprintf(stderr, "mmx-jpegd: cannot drop root: %s\n",
			strerror(errno));
		return ret;
	}
	/* Paranoia: the drop must stick. */
	if (getresuid(&ruid, &euid, &suid) || getresgid(&rgid, &egid, &sgid) ||
	    ruid != uid || euid != uid || suid != uid || rgid != gid ||
	    egid != gid || sgid != gid || setuid(0) == 0) {
		fprintf(stderr, "mmx-jpegd: root not dropped\n");
		return -EPERM;
	}
	return 0;
}

static int set_limit(int resource, rlim_t v)
{
	struct rlimit rl = { .rlim_cur = v, .rlim_max = v };

	if (setrlimit(resource, &rl)) {
		int ret = -errno;

		fprintf(stderr, "mmx-jpegd: setrlimit %d: %s\n", resource,
			strerror(errno));
		return ret;
	}
	return 0;
}

/* The low 32 bits of system call argument @i. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG_LO(i)	(offsetof(struct seccomp_data, args[i]))
#else
#define ARG_LO(i)	(offsetof(struct seccomp_data, args[i]) + 4)
#endif

#define RET(v)		BPF_STMT(BPF_RET | BPF_K, (v))
/* Allow system call @nr. */
#define ALLOW(nr)	\
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
	RET(SECCOMP_RET_ALLOW)
/* Allow @nr only on fd @fd (argument 0). */
#define ALLOW_FD(nr, fd)	\
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 4), \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(0)), \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (fd), 0, 1), \
	RET(SECCOMP_RET_ALLOW), \
	RET(SECCOMP_RET_KILL_PROCESS)
/* Allow @nr only on fd @fd1 or @fd2 (argument 0). */
#define ALLOW_FD2(nr, fd1, fd2)	\
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 5), \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(0)), \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (fd1), 1, 0), \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (fd2), 0, 1), \
	RET(SECCOMP_RET_ALLOW), \
	RET(SECCOMP_RET_KILL_PROCESS)
/*
 * Allow @nr unless argument 2 (the protection) has PROT_EXEC: the worker
 * never needs new code, so a hijacked one cannot map any.
 */
#define ALLOW_NOEXEC(nr)	\
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 4), \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(2)), \
	BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 0, 1), \
	RET(SECCOMP_RET_KILL_PROCESS), \
	RET(SECCOMP_RET_ALLOW)
/* mmap: never executable, and of no file but the shared memory @fd
 * (anonymous mappings pass fd -1). */
#define ALLOW_MMAP(nr, fd)	\
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 7), \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(2)), \
	BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 4, 0), \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(4)), \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (fd), 1, 0), \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xffffffffu, 0, 1), \
	RET(SECCOMP_RET_ALLOW), \
	RET(SECCOMP_RET_KILL_PROCESS)

static int install_filter(void)
{
#ifdef JPEGD_AUDIT_ARCH
	struct sock_filter filter[] = {
		/* Only this ABI: another one has other numbers. */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, JPEGD_AUDIT_ARCH, 1, 0),
		RET(SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
#ifdef __x86_64__
		/* x32 system calls share AUDIT_ARCH_X86_64: refuse them. */
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),
		RET(SECCOMP_RET_KILL_PROCESS),
#endif
		/* the protocol: requests in, replies out, errors to stderr */
		ALLOW_FD(SYS_read, MMX_JPEGD_FD_SOCKET),
		ALLOW_FD2(SYS_write, MMX_JPEGD_FD_SOCKET, 2),
		/* malloc and the shared frame memory */
		ALLOW_MMAP(SYS_mmap, MMX_JPEGD_FD_MEMORY),
		ALLOW_NOEXEC(SYS_mprotect),
		ALLOW(SYS_munmap),
		ALLOW(SYS_mremap),
		ALLOW(SYS_brk),
		ALLOW(SYS_madvise),
		ALLOW(SYS_futex),
#ifdef __SANITIZE_ADDRESS__
		/*
		 * ASan's build (make SANITIZE=1) asks where the signal stack
		 * is on every longjmp (libjpeg's error exit)
		 */
		ALLOW(SYS_sigaltstack),
#endif
		/* the end */
		ALLOW(SYS_rt_sigreturn),
		ALLOW(SYS_exit),
		ALLOW(SYS_exit_group),
		/* everything else: open, socket, ioctl, execve, ptrace, ... */
		RET(SECCOMP_RET_KILL_PROCESS),
	};
	struct sock_fprog prog = {
		.len = sizeof(filter) / sizeof(filter[0]),
		.filter = filter,
	};

	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		int ret = -errno;

		fprintf(stderr, "mmx-jpegd: seccomp: %s\n", strerror(errno));
		return ret;
	}
	return 0;
#else
	fprintf(stderr, "mmx-jpegd: no seccomp filter for this architecture\n");
	return -ENOSYS;
#endif
}

int jpegd_sandbox_enter(const struct jpegd_sandbox *sb)
{
	int ret;

	ret = drop_root(sb->user);
	if (ret)
		return ret;
	ret = set_limit(RLIMIT_CORE, 0);
	if (!ret)
		ret = set_limit(RLIMIT_NPROC, 0);
	if (!ret)
		ret = set_limit(RLIMIT_NOFILE, 5);
	/*
	 * AddressSanitizer (make SANITIZE=1) reserves terabytes of shadow
	 * address space at startup: any address space limit makes every
	 * later allocation fail, so its builds go without one.
	 */
#ifndef __SANITIZE_ADDRESS__
	if (!ret && sb->mem_limit)
		ret = set_limit(RLIMIT_AS, sb->mem_limit);
#endif
	if (ret)
		return ret;
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		ret = -errno;
		fprintf(stderr, "mmx-jpegd: prctl: %s\n", strerror(errno));
		return ret;
	}
	return install_filter();
}
