// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The decoder pool: N mmx-jpegd processes, each with a SOCK_SEQPACKET
 * socket and a sealed memfd shared with the pool, watched through one epoll
 * fd (their sockets, their pidfds, a timerfd for decode deadlines and an
 * eventfd that stays readable while results wait). Without pidfd_open()
 * (Linux < 5.3, or valgrind 3.19) a dead worker is found by its socket's
 * EOF and reaped with waitpid(WNOHANG) from the timer. Nothing here blocks but
 * mmx_decode_pool_new() (the workers' startup) and mmx_decode_pool_free().
 *
 * Everything a worker says is untrusted: replies are checked against the
 * request, and the shared memory is only ever read as pixels.
 */

#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/timerfd.h>
#include <sys/wait.h>

#include "mmx_decode.h"
#include "mmx_error.h"

#ifndef MMX_LIBEXECDIR
#define MMX_LIBEXECDIR	"/usr/local/libexec"
#endif
#ifndef P_PIDFD
#define P_PIDFD		3
#endif

#define START_TIMEOUT_MS	5000
/* Without pidfds, how often a dying worker is looked for. */
#define REAP_POLL_NS		5000000ull
#define DRM_MAJOR		226
#define PAGE_ROUND(x)		(((x) + 4095) & ~(uint64_t)4095)

enum ev_kind { EV_SOCK = 1, EV_PIDFD, EV_TIMER, EV_EVENT };

enum slot_state {
	SLOT_OFF,	/* no process */
	SLOT_STARTING,	/* spawned, no hello yet */
	SLOT_IDLE,
	SLOT_BUSY,	/* one frame in flight */
	SLOT_DYING,	/* killed or gone, not reaped yet */
	SLOT_DISABLED,	/* failed to start MMX_DECODE_MAX_START_FAILURES times */
};

struct job {
	struct job *next;
	uint64_t id;
	unsigned char *jpeg;	/* kept until finished (for a resend) */
	size_t len;
	unsigned char *dst;
	uint32_t pitch, width, height;
	uint32_t format;	/* MMX_JPEGD_FORMAT_*: JPEG or audio */
	bool cancelled;
	struct mmx_decode_result res;
};

struct job_list {
	struct job *head, *tail;
	unsigned int n;
};

struct slot {
	enum slot_state state;
	unsigned int gen;	/* tells stale epoll events apart */
	pid_t pid;
	int pidfd, sock, memfd;
	unsigned char *map;
	uint64_t map_size;
	uint32_t seq;
	struct mmx_jpegd_request rq;	/* the one in flight */
	struct job *job;
	uint64_t deadline;	/* ns, CLOCK_MONOTONIC; 0: none */
	bool hello, timed_out, protocol_error;
	unsigned int start_failures;
};

struct mmx_decode_pool {
	struct mmx_decode_config cfg;	/* resolved: no zero field */
	char path[PATH_MAX];
	char user[64];
	char mem_limit[32];
	int epfd, timerfd, eventfd;
	bool event_set, started;
	unsigned int nslots;
	struct slot slots[MMX_DECODE_MAX_WORKERS];
	struct job_list queue, done;
	unsigned int jobs;	/* queued + in flight + done */
	struct mmx_decode_stats stats;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static void list_add(struct job_list *l, struct job *j)
{
	j->next = NULL;
	if (l->tail)
		l->tail->next = j;
	else
		l->head = j;
	l->tail = j;
	l->n++;
}

static void list_push(struct job_list *l, struct job *j)
{
	j->next = l->head;
	l->head = j;
	if (!l->tail)
		l->tail = j;
	l->n++;
}

static struct job *list_pop(struct job_list *l)
{
	struct job *j = l->head;

	if (j) {
		l->head = j->next;
		if (!l->head)
			l->tail = NULL;
		l->n--;
	}
	return j;
}

/* Unlink the job with @id; NULL if absent. */
static struct job *list_take(struct job_list *l, uint64_t id)
{
	struct job *j, *prev = NULL;

	for (j = l->head; j; prev = j, j = j->next) {
		if (j->id != id)
			continue;
		if (prev)
			prev->next = j->next;
		else
			l->head = j->next;
		if (l->tail == j)
			l->tail = prev;
		l->n--;
		return j;
	}
	return NULL;
}

static void job_free(struct mmx_decode_pool *p, struct job *j)
{
	free(j->jpeg);
	free(j);
	p->jobs--;
}

static uint64_t ev_data(unsigned int gen, unsigned int slot,
			enum ev_kind kind)
{
	return (uint64_t)gen << 16 | slot << 8 | kind;
}

static int ep_add(struct mmx_decode_pool *p, int fd, uint64_t data)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = data };

	return epoll_ctl(p->epfd, EPOLL_CTL_ADD, fd, &ev) ? -errno : 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* The results wait: keep the eventfd readable, and only then. */
static void update_event(struct mmx_decode_pool *p)
{
	uint64_t v = 1;

	if (p->done.n && !p->event_set) {
		if (write(p->eventfd, &v, sizeof(v)) == sizeof(v))
			p->event_set = true;
	} else if (!p->done.n && p->event_set) {
		if (read(p->eventfd, &v, sizeof(v)) == sizeof(v))
			p->event_set = false;
	}
}

static void arm_timer(struct mmx_decode_pool *p)
{
	struct itimerspec its = { { 0, 0 }, { 0, 0 } };
	uint64_t first = 0;
	unsigned int i;

	for (i = 0; i < p->nslots; i++) {
		uint64_t d = p->slots[i].deadline;

		if (d && (!first || d < first))
			first = d;
	}
	if (first) {
		its.it_value.tv_sec = first / 1000000000u;
		its.it_value.tv_nsec = first % 1000000000u;
	}
	timerfd_settime(p->timerfd, TFD_TIMER_ABSTIME, &its, NULL);
}

static void finish(struct mmx_decode_pool *p, struct job *j, int status,
		   int sig)
{
	if (j->cancelled) {
		job_free(p, j);
		return;
	}
	j->res.id = j->id;
	j->res.status = status;
	j->res.signal = sig;
	free(j->jpeg);
	j->jpeg = NULL;
	list_add(&p->done, j);
}

static void signal_slot(struct slot *s)
{
	if (s->pidfd >= 0)
		syscall(SYS_pidfd_send_signal, s->pidfd, SIGKILL, NULL, 0);
	else if (s->pid > 0)
		kill(s->pid, SIGKILL);	/* not reaped yet: still ours */
}

/*
 * Has the worker exited? 1 (and *@sig, the signal that ended it, or 0) or
 * 0 (not yet; only without @block). A worker someone else reaped (SIGCHLD
 * ignored: ECHILD) counts as exited.
 */
static int wait_slot(struct slot *s, bool block, int *sig)
{
	int flags = WEXITED | (block ? 0 : WNOHANG), status, r;
	siginfo_t si;

	*sig = 0;
	if (s->pidfd >= 0) {
		memset(&si, 0, sizeof(si));
		while ((r = waitid(P_PIDFD, s->pidfd, &si, flags)) &&
		       errno == EINTR)
			;
		if (r)
			return 1;
		if (!si.si_pid)
			return 0;
		if (si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED)
			*sig = si.si_status;
		return 1;
	}
	if (s->pid <= 0)
		return 1;
	while ((r = waitpid(s->pid, &status, block ? 0 : WNOHANG)) < 0 &&
	       errno == EINTR)
		;
	if (r == 0)
		return 0;
	if (r > 0 && WIFSIGNALED(status))
		*sig = WTERMSIG(status);
	return 1;
}

static void arm_timer(struct mmx_decode_pool *p);

/* Kill the worker; it is reaped when its pidfd (or the timer) says so. */
static void kill_slot(struct mmx_decode_pool *p, struct slot *s)
{
	signal_slot(s);
	if (s->state == SLOT_DISABLED || s->state == SLOT_OFF)
		return;
	s->state = SLOT_DYING;
	if (s->pidfd < 0) {
		s->deadline = now_ns() + REAP_POLL_NS;
		arm_timer(p);
	}
}

/*
 * fd 2 goes to the worker only if it cannot be anything precious (the DRM
 * device, or a socket/file the caller reused fd 2 for): a tty, a pipe or a
 * regular file; a socket too (journald's stream). Else /dev/null.
 */
static bool stderr_ok(void)
{
	struct stat st;

	if (fstat(2, &st))
		return false;
	if (S_ISCHR(st.st_mode))
		return major(st.st_rdev) != DRM_MAJOR && isatty(2);
	return S_ISFIFO(st.st_mode) || S_ISREG(st.st_mode) ||
	       S_ISSOCK(st.st_mode);
}

/*
 * Start @s's worker process: @p's mmx-jpegd with @cs as its socket and
 * @cm as its memory, nothing else open, default signals. 0 or -errno.
 */
static int spawn_worker(struct mmx_decode_pool *p, struct slot *s, int cs,
			int cm)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	char *argv[8], *envp[] = { NULL };
	int argc = 0, ret;
	sigset_t mask;

	argv[argc++] = p->path;
	argv[argc++] = "--worker";
	argv[argc++] = "--mem-limit";
	argv[argc++] = p->mem_limit;
	if (p->user[0]) {
		argv[argc++] = "--user";
		argv[argc++] = p->user;
	}
	argv[argc] = NULL;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, cs, MMX_JPEGD_FD_SOCKET);
	posix_spawn_file_actions_adddup2(&fa, cm, MMX_JPEGD_FD_MEMORY);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	if (!stderr_ok())
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null",
						 O_WRONLY, 0);
	posix_spawn_file_actions_addclosefrom_np(&fa, MMX_JPEGD_FD_MEMORY + 1);
	posix_spawnattr_init(&attr);
	sigemptyset(&mask);
	posix_spawnattr_setsigmask(&attr, &mask);
	sigfillset(&mask);
	posix_spawnattr_setsigdefault(&attr, &mask);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK |
				 POSIX_SPAWN_SETSIGDEF);
	ret = -posix_spawn(&s->pid, p->path, &fa, &attr, argv, envp);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	return ret;
}

/* A new generation of @s: nothing open, nothing running. */
static void slot_reset(struct slot *s)
{
	s->gen++;
	s->pid = -1;
	s->pidfd = s->sock = s->memfd = -1;
	s->map = NULL;
	s->map_size = 0;
	s->job = NULL;
	s->deadline = 0;
	s->hello = s->timed_out = s->protocol_error = false;
}

/*
 * Watch slot @i's started worker: its socket and its pidfd (where the
 * kernel has them) in the pool's epoll. On failure the worker is killed
 * and reaped; -errno.
 */
static int slot_watch(struct mmx_decode_pool *p, unsigned int i)
{
	struct slot *s = &p->slots[i];
	int ret, sig;

	s->pidfd = syscall(SYS_pidfd_open, s->pid, 0);
	ret = s->pidfd < 0 && errno != ENOSYS ? -errno : 0;
	if (!ret)
		ret = ep_add(p, s->sock, ev_data(s->gen, i, EV_SOCK));
	if (!ret && s->pidfd >= 0)
		ret = ep_add(p, s->pidfd, ev_data(s->gen, i, EV_PIDFD));
	if (!ret)
		return 0;
	epoll_ctl(p->epfd, EPOLL_CTL_DEL, s->sock, NULL);
	signal_slot(s);
	wait_slot(s, true, &sig);
	close_fd(&s->pidfd);
	s->pid = -1;
	return ret;
}

static int slot_start(struct mmx_decode_pool *p, unsigned int i)
{
	struct slot *s = &p->slots[i];
	int sv[2], cs = -1, cm = -1, ret;

	slot_reset(s);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -errno;
	s->sock = sv[0];
	/* The worker cannot shrink it under the pool's feet (SIGBUS). */
	s->memfd = memfd_create("mmx-jpegd", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (s->memfd < 0 ||
	    fcntl(s->memfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL)) {
		ret = -errno;
		close(sv[1]);
		goto err;
	}
	/* Above 4 so that the dup2s to 3 and 4 cannot clobber each other. */
	cs = fcntl(sv[1], F_DUPFD_CLOEXEC, 10);
	close(sv[1]);
	cm = fcntl(s->memfd, F_DUPFD_CLOEXEC, 10);
	if (cs < 0 || cm < 0) {
		ret = -errno;
		goto err;
	}

	ret = spawn_worker(p, s, cs, cm);
	close_fd(&cs);
	close_fd(&cm);
	if (ret) {
		s->pid = -1;
		goto err;
	}

	ret = slot_watch(p, i);
	if (ret)
		goto err;
	s->state = SLOT_STARTING;
	s->deadline = now_ns() + START_TIMEOUT_MS * 1000000ull;
	if (p->started)
		p->stats.restarts++;
	arm_timer(p);
	return 0;
err:
	close_fd(&cs);
	close_fd(&cm);
	close_fd(&s->sock);
	close_fd(&s->memfd);
	s->state = SLOT_OFF;
	return ret;
}

/* Size the shared memory (it only grows) and map it. */
static int slot_map(struct slot *s, uint64_t size)
{
	void *m;

	if (size <= s->map_size)
		return 0;
	size = PAGE_ROUND(size);
	if ((size_t)size != size || ftruncate(s->memfd, size))
		return -ENOMEM;
	if (s->map)
		m = mremap(s->map, s->map_size, size, MREMAP_MAYMOVE);
	else
		m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 s->memfd, 0);
	if (m == MAP_FAILED)
		return -ENOMEM;
	s->map = m;
	s->map_size = size;
	return 0;
}

static void slot_dispatch(struct mmx_decode_pool *p, struct slot *s,
			  struct job *j)
{
	struct mmx_jpegd_request *rq = &s->rq;
	bool audio = j->format == MMX_JPEGD_FORMAT_S16_MPEG;
	uint32_t max_w = j->width < p->cfg.max_width || audio ? j->width :
		p->cfg.max_width;
	uint32_t max_h = j->height < p->cfg.max_height || audio ? j->height :
		p->cfg.max_height;
	uint64_t out_off = PAGE_ROUND(j->len);
	int ret;

	/* audio: max_w frames of max_h channels, 2 bytes a sample */
	ret = slot_map(s, out_off + (uint64_t)max_w * max_h * (audio ? 2 : 4));
	if (ret) {
		finish(p, j, ret, 0);
		return;
	}
	memcpy(s->map, j->jpeg, j->len);

	if (++s->seq == 0)
		s->seq = 1;	/* 0 is the hello */
	memset(rq, 0, sizeof(*rq));
	rq->seq = s->seq;
	rq->len = j->len;
	rq->max_width = max_w;
	rq->max_height = max_h;
	rq->format = j->format;
	rq->in_off = 0;
	rq->out_off = out_off;
	rq->map_size = s->map_size;

	s->job = j;
	s->state = SLOT_BUSY;
	s->deadline = now_ns() + p->cfg.timeout_ms * 1000000ull;
	/*
	 * One request per worker in flight: a tiny message never blocks. If
	 * the worker is already gone, the frame is not to blame: it goes back
	 * to the head of the queue for another worker.
	 */
	if (send(s->sock, rq, sizeof(*rq), MSG_DONTWAIT | MSG_NOSIGNAL) !=
	    (ssize_t)sizeof(*rq)) {
		s->job = NULL;
		s->deadline = 0;
		list_push(&p->queue, j);
		kill_slot(p, s);
	}
	arm_timer(p);
}

/* Hand queued frames to idle workers. */
static void dispatch(struct mmx_decode_pool *p)
{
	unsigned int i;

	for (i = 0; i < p->nslots && p->queue.n; i++)
		if (p->slots[i].state == SLOT_IDLE)
			slot_dispatch(p, &p->slots[i], list_pop(&p->queue));
}

static void protocol_error(struct mmx_decode_pool *p, struct slot *s)
{
	s->protocol_error = true;
	kill_slot(p, s);
}

/* Copy a checked, decoded frame from the shared memory to its destination. */
static void deliver(struct slot *s, struct job *j,
		    const struct mmx_jpegd_reply *r)
{
	const unsigned char *src = s->map + s->rq.out_off;
	size_t row = (size_t)r->width * 4;
	uint32_t y;

	if (j->cancelled)
		return;
	if (s->rq.format == MMX_JPEGD_FORMAT_S16_MPEG) {
		memcpy(j->dst, src, (size_t)r->width * r->height * 2);
		return;
	}
	if (r->pitch == row && j->pitch == row) {
		memcpy(j->dst, src, row * r->height);
		return;
	}
	for (y = 0; y < r->height; y++)
		memcpy(j->dst + (size_t)y * j->pitch,
		       src + (size_t)y * r->pitch, row);
}

static bool reply_ok(const struct slot *s, const struct mmx_jpegd_reply *r)
{
	const struct mmx_jpegd_request *rq = &s->rq;
	uint64_t room = s->map_size - rq->out_off;

	if (r->seq != rq->seq || (r->flags & ~MMX_DECODE_WARNING))
		return false;
	/* the errors a decoder may report */
	if (r->status == -EBADMSG || r->status == -E2BIG ||
	    r->status == -ENOMEM)
		return true;
	if (r->status)
		return false;
	/* MPEG audio: width PCM frames of height channels, pitch the rate */
	if (rq->format == MMX_JPEGD_FORMAT_S16_MPEG)
		return r->width && r->width <= rq->max_width &&
		       r->height == rq->max_height &&
		       r->pitch >= 8000 && r->pitch <= 48000 &&
		       (uint64_t)r->width * r->height * 2 <= room;
	return r->width && r->height && r->width <= rq->max_width &&
	       r->height <= rq->max_height &&
	       r->pitch >= (uint64_t)r->width * 4 &&
	       (uint64_t)r->pitch * (r->height - 1) +
	       (uint64_t)r->width * 4 <= room;
}

static void slot_readable(struct mmx_decode_pool *p, struct slot *s)
{
	struct mmx_jpegd_reply r;
	struct job *j;
	ssize_t n;

	n = recv(s->sock, &r, sizeof(r), MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		kill_slot(p, s);	/* EOF or reset: it died, reap it */
		return;
	}
	if (n != (ssize_t)sizeof(r)) {
		protocol_error(p, s);
		return;
	}
	if (s->state == SLOT_STARTING) {
		if (r.seq || r.status || r.width != MMX_JPEGD_VERSION) {
			protocol_error(p, s);
			return;
		}
		s->state = SLOT_IDLE;
		s->hello = true;
		s->deadline = 0;
		s->start_failures = 0;
		arm_timer(p);
		return;
	}
	if (s->state != SLOT_BUSY || !reply_ok(s, &r)) {
		protocol_error(p, s);
		return;
	}
	j = s->job;
	s->job = NULL;
	s->state = SLOT_IDLE;
	s->deadline = 0;
	arm_timer(p);
	j->res.width = r.width;
	j->res.height = r.height;
	j->res.flags = r.flags;
	if (j->format == MMX_JPEGD_FORMAT_S16_MPEG && r.status == 0)
		j->res.rate = r.pitch;
	if (r.status == 0)
		deliver(s, j, &r);
	finish(p, j, r.status, 0);
}

static void fail_queue(struct mmx_decode_pool *p, int status)
{
	struct job *j;

	while ((j = list_pop(&p->queue)))
		finish(p, j, status, 0);
}

/*
 * The worker's process may have ended (its pidfd is readable, or the timer
 * looks for it): account, clean, restart.
 */
static void slot_reap(struct mmx_decode_pool *p, unsigned int i)
{
	struct slot *s = &p->slots[i];
	int sig, status;
	unsigned int k;

	if (!wait_slot(s, false, &sig)) {
		if (s->pidfd < 0) {
			s->deadline = now_ns() + REAP_POLL_NS;
			arm_timer(p);
		}
		return;	/* not yet */
	}
	s->pid = -1;	/* reaped: never signal that number again */

	/* A last reply sent just before the end still counts. */
	if (s->state == SLOT_BUSY && !s->protocol_error && !s->timed_out)
		slot_readable(p, s);
	if (s->job) {
		status = s->timed_out ? -ETIMEDOUT :
			 s->protocol_error ? -EPROTO : -ECONNRESET;
		p->stats.crashes++;
		if (s->timed_out)
			p->stats.timeouts++;
		finish(p, s->job, status, sig);
		s->job = NULL;
	}
	if (s->map)
		munmap(s->map, s->map_size);
	s->map = NULL;
	close_fd(&s->sock);
	close_fd(&s->pidfd);
	close_fd(&s->memfd);
	s->pid = -1;
	s->deadline = 0;

	if (!s->hello)
		s->start_failures++;
	if (s->start_failures >= MMX_DECODE_MAX_START_FAILURES ||
	    slot_start(p, i)) {
		s->state = SLOT_DISABLED;
		for (k = 0; k < p->nslots; k++)
			if (p->slots[k].state != SLOT_DISABLED)
				break;
		if (k == p->nslots)
			fail_queue(p, -ENOEXEC);
	}
	arm_timer(p);
}

static void timer_expired(struct mmx_decode_pool *p)
{
	uint64_t v, now = now_ns();
	unsigned int i;

	if (read(p->timerfd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return;
	for (i = 0; i < p->nslots; i++) {
		struct slot *s = &p->slots[i];

		if (!s->deadline || s->deadline > now)
			continue;
		s->deadline = 0;
		if (s->state == SLOT_DYING && s->pidfd < 0) {
			slot_reap(p, i);
			continue;
		}
		if (s->state == SLOT_BUSY)
			s->timed_out = true;
		kill_slot(p, s);
	}
	arm_timer(p);
}

static void handle(struct mmx_decode_pool *p, uint64_t data)
{
	enum ev_kind kind = data & 0xff;
	unsigned int i = (data >> 8) & 0xff;
	struct slot *s;

	if (kind == EV_TIMER) {
		timer_expired(p);
		return;
	}
	if (kind == EV_EVENT || i >= p->nslots)
		return;
	s = &p->slots[i];
	if ((unsigned int)(data >> 16) != s->gen)
		return;	/* a previous process of this slot */
	if (kind == EV_PIDFD && s->pidfd >= 0) {
		slot_reap(p, i);
	} else if (kind == EV_SOCK && s->sock >= 0) {
		if (s->state == SLOT_DYING) {
			/* nothing more to hear; the pidfd will say when */
			epoll_ctl(p->epfd, EPOLL_CTL_DEL, s->sock, NULL);
			return;
		}
		slot_readable(p, s);
	}
}

/* Handle everything pending, waiting at most @timeout_ms (0: not). */
static void pump(struct mmx_decode_pool *p, int timeout_ms)
{
	struct epoll_event ev[16];
	int n, k;

	do {
		n = epoll_wait(p->epfd, ev, 16, timeout_ms);
		for (k = 0; k < n; k++)
			handle(p, ev[k].data.u64);
		timeout_ms = 0;
	} while (n == 16);
}

static int find_path(struct mmx_decode_pool *p, const char *path)
{
	char exe[PATH_MAX];
	ssize_t n;

	if (!path || !*path)
		path = secure_getenv("MMX_JPEGD");
	if (path && *path) {
		if (strlen(path) >= sizeof(p->path))
			return -ENAMETOOLONG;
		strcpy(p->path, path);
		return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		snprintf(p->path, sizeof(p->path), "%s/mmx-jpegd",
			 dirname(exe));
		if (access(p->path, X_OK) == 0)
			return 0;
	}
	snprintf(p->path, sizeof(p->path), "%s/mmx/mmx-jpegd",
		 MMX_LIBEXECDIR);
	return 0;
}

static int resolve_config(struct mmx_decode_pool *p,
			  const struct mmx_decode_config *cfg,
			  struct mmx_error *err)
{
	struct mmx_decode_config *c = &p->cfg;
	uint64_t mem;
	long cpus;
	int ret;

	if (cfg)
		*c = *cfg;
	if (!c->workers) {
		cpus = sysconf(_SC_NPROCESSORS_ONLN);
		c->workers = cpus > 0 ? cpus : 1;
	}
	if (c->workers > MMX_DECODE_MAX_WORKERS)
		c->workers = MMX_DECODE_MAX_WORKERS;
	if (!c->max_width)
		c->max_width = MMX_DECODE_DEFAULT_MAX_DIM;
	if (!c->max_height)
		c->max_height = MMX_DECODE_DEFAULT_MAX_DIM;
	if (!c->max_input)
		c->max_input = MMX_DECODE_DEFAULT_MAX_INPUT;
	if (!c->timeout_ms)
		c->timeout_ms = MMX_DECODE_DEFAULT_TIMEOUT_MS;
	if (!c->queue)
		c->queue = MMX_DECODE_DEFAULT_QUEUE;
	if (c->max_width > 65535 || c->max_height > 65535 ||
	    c->max_input > (1u << 30))
		return mmx_private_error(err, -EINVAL,
					 "decoder limits too large");
	if (c->user && (strlen(c->user) >= sizeof(p->user) ||
			c->user[0] == '-'))
		return mmx_private_error(err, -EINVAL, "bad decoder user");
	if (c->user)
		strcpy(p->user, c->user);
	c->user = NULL;
	ret = find_path(p, c->path);
	if (ret)
		return mmx_private_error(err, ret, "decoder path too long");
	c->path = NULL;
	/*
	 * The worker's address space: the shared memory at its largest, the
	 * decoder's own (a progressive JPEG keeps 2 bytes per sample and
	 * component: 8 per pixel at most with 4:4:4 and slack) and 64 MiB for
	 * code, stack and heap.
	 */
	mem = PAGE_ROUND(c->max_input) +
	      (uint64_t)c->max_width * c->max_height * (4 + 8) + (64u << 20);
	snprintf(p->mem_limit, sizeof(p->mem_limit), "%llu",
		 (unsigned long long)mem);
	return 0;
}

/* The pool's epoll, its timer and its wakeup eventfd, watched. */
static int pool_fds(struct mmx_decode_pool *p, struct mmx_error *err)
{
	int ret;

	p->epfd = epoll_create1(EPOLL_CLOEXEC);
	p->timerfd = timerfd_create(CLOCK_MONOTONIC,
				    TFD_NONBLOCK | TFD_CLOEXEC);
	p->eventfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (p->epfd < 0 || p->timerfd < 0 || p->eventfd < 0)
		return mmx_private_error(err, -errno, "decoder pool: %s",
					 strerror(errno));
	ret = ep_add(p, p->timerfd, EV_TIMER);
	if (!ret)
		ret = ep_add(p, p->eventfd, EV_EVENT);
	if (ret)
		mmx_private_error(err, ret, "decoder pool: epoll: %s",
				  strerror(-ret));
	return ret;
}

/*
 * Wait until every worker is in its sandbox (or has given up), a start's
 * time at most; the number of idle workers.
 */
static unsigned int wait_started(struct mmx_decode_pool *p)
{
	uint64_t deadline = now_ns() + (START_TIMEOUT_MS + 1000) * 1000000ull;
	unsigned int i, idle;

	for (;;) {
		uint64_t now = now_ns();
		unsigned int pending = 0;

		idle = 0;
		for (i = 0; i < p->nslots; i++) {
			enum slot_state st = p->slots[i].state;

			idle += st == SLOT_IDLE;
			pending += st == SLOT_STARTING || st == SLOT_DYING;
		}
		if (!pending || now >= deadline)
			return idle;
		pump(p, (deadline - now) / 1000000 + 1);
	}
}

int mmx_decode_pool_new(const struct mmx_decode_config *cfg,
			struct mmx_decode_pool **out, struct mmx_error *err)
{
	struct mmx_decode_pool *p;
	unsigned int i, idle;
	int ret;

	*out = NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return mmx_private_error(err, -ENOMEM, "out of memory");
	p->epfd = p->timerfd = p->eventfd = -1;
	for (i = 0; i < MMX_DECODE_MAX_WORKERS; i++) {
		p->slots[i].pidfd = p->slots[i].sock = -1;
		p->slots[i].memfd = -1;
		p->slots[i].pid = -1;
	}
	ret = resolve_config(p, cfg, err);
	if (ret)
		goto err;
	p->nslots = p->cfg.workers;
	ret = pool_fds(p, err);
	if (ret)
		goto err;
	for (i = 0; i < p->nslots; i++) {
		ret = slot_start(p, i);
		if (ret) {
			mmx_private_error(err, ret, "cannot start %s: %s",
					  p->path, strerror(-ret));
			goto err;
		}
	}
	idle = wait_started(p);
	if (idle < p->nslots) {
		ret = mmx_private_error(err, -ENOEXEC,
					"%s: %u of %u decoders did not start",
					p->path, p->nslots - idle, p->nslots);
		goto err;
	}
	p->started = true;
	*out = p;
	return 0;
err:
	mmx_decode_pool_free(p);
	return ret;
}

void mmx_decode_pool_free(struct mmx_decode_pool *p)
{
	struct job *j;
	unsigned int i;

	if (!p)
		return;
	for (i = 0; i < MMX_DECODE_MAX_WORKERS; i++) {
		struct slot *s = &p->slots[i];
		int sig;

		if (s->pid > 0) {
			signal_slot(s);
			wait_slot(s, true, &sig);
		}
		if (s->job)
			job_free(p, s->job);
		if (s->map)
			munmap(s->map, s->map_size);
		close_fd(&s->pidfd);
		close_fd(&s->sock);
		close_fd(&s->memfd);
	}
	while ((j = list_pop(&p->queue)))
		job_free(p, j);
	while ((j = list_pop(&p->done)))
		job_free(p, j);
	close_fd(&p->epfd);
	close_fd(&p->timerfd);
	close_fd(&p->eventfd);
	free(p);
}

static int submit(struct mmx_decode_pool *p, uint64_t id, uint32_t format,
		  const void *jpeg, size_t len, void *dst, uint32_t pitch,
		  uint32_t width, uint32_t height);

int mmx_decode_submit(struct mmx_decode_pool *p, uint64_t id,
		      const void *jpeg, size_t len, void *dst, uint32_t pitch,
		      uint32_t width, uint32_t height)
{
	if (!jpeg || !len || !dst || !width || !height ||
	    pitch < (uint64_t)width * 4)
		return -EINVAL;
	return submit(p, id, MMX_JPEGD_FORMAT_XRGB8888, jpeg, len, dst, pitch,
		      width, height);
}

int mmx_decode_submit_audio(struct mmx_decode_pool *p, uint64_t id,
			    const void *mpeg, size_t len, int16_t *dst,
			    uint32_t max_frames, uint32_t channels)
{
	if (!mpeg || !len || !dst || !max_frames ||
	    (channels != 1 && channels != 2) ||
	    (uint64_t)max_frames * channels * 2 >
	    (uint64_t)p->cfg.max_width * p->cfg.max_height * 4)
		return -EINVAL;
	return submit(p, id, MMX_JPEGD_FORMAT_S16_MPEG, mpeg, len, dst,
		      max_frames * channels * 2, max_frames, channels);
}

static int submit(struct mmx_decode_pool *p, uint64_t id, uint32_t format,
		  const void *jpeg, size_t len, void *dst, uint32_t pitch,
		  uint32_t width, uint32_t height)
{
	struct job *j;
	unsigned int i;

	if (len > p->cfg.max_input)
		return -E2BIG;
	for (i = 0; i < p->nslots; i++)
		if (p->slots[i].state != SLOT_DISABLED)
			break;
	if (i == p->nslots)
		return -ENOEXEC;
	if (p->jobs >= p->cfg.queue)
		return -EAGAIN;
	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	j->jpeg = malloc(len);
	if (!j->jpeg) {
		free(j);
		return -ENOMEM;
	}
	memcpy(j->jpeg, jpeg, len);
	j->len = len;
	j->id = id;
	j->dst = dst;
	j->pitch = pitch;
	j->width = width;
	j->height = height;
	j->format = format;
	p->jobs++;
	p->stats.submitted++;
	list_add(&p->queue, j);
	dispatch(p);
	update_event(p);
	return 0;
}

int mmx_decode_fd(const struct mmx_decode_pool *p)
{
	return p->epfd;
}

int mmx_decode_collect(struct mmx_decode_pool *p,
		       struct mmx_decode_result *res, unsigned int n)
{
	unsigned int got = 0;
	struct job *j;

	pump(p, 0);
	dispatch(p);
	while (got < n && (j = list_pop(&p->done))) {
		res[got++] = j->res;
		if (j->res.status)
			p->stats.failed++;
		else
			p->stats.decoded++;
		job_free(p, j);
	}
	update_event(p);
	return got;
}

int mmx_decode_cancel(struct mmx_decode_pool *p, uint64_t id)
{
	struct job *j;
	unsigned int i;

	j = list_take(&p->queue, id);
	if (!j)
		j = list_take(&p->done, id);
	if (j) {
		job_free(p, j);
		update_event(p);
		return 0;
	}
	for (i = 0; i < p->nslots; i++) {
		j = p->slots[i].job;
		if (j && j->id == id && !j->cancelled) {
			j->cancelled = true;
			return 0;
		}
	}
	return -ENOENT;
}

void mmx_decode_get_stats(const struct mmx_decode_pool *p,
			  struct mmx_decode_stats *s)
{
	unsigned int i;

	*s = p->stats;
	s->queued = p->queue.n;
	s->done = p->done.n;
	s->in_flight = 0;
	for (i = 0; i < p->nslots; i++)
		s->in_flight += p->slots[i].job != NULL;
}

pid_t mmx_decode_worker_pid(const struct mmx_decode_pool *p, unsigned int i)
{
	if (i >= p->nslots || p->slots[i].state == SLOT_DISABLED)
		return -1;
	return p->slots[i].pid;
}

unsigned int mmx_decode_workers(const struct mmx_decode_pool *p)
{
	return p->nslots;
}
