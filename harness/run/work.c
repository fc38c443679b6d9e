/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../measure/tsc.h"
#include "work.h"

const char *const pcb_delivery_name[5] = {
	"kworker", "signal", "poll", "idle", "workqueue",
};

/*
 * the calling drainer's ticks in the wake system calls of queue_work_on(),
 * for the drain table: read in the drains pcb_wake_time() samples alone
 */
static __thread uint64_t wake_ticks;
static __thread bool wake_timed;

void pcb_wake_time(bool on)
{
	wake_timed = on;
}

uint64_t pcb_wake_ticks_take(void)
{
	uint64_t t = wake_ticks;

	wake_ticks = 0;
	return t;
}

/*
 * The worklist as include/linux/list.h links it: the same stores in the
 * same order, the lockless reader's load and the store it races with
 * single accesses (READ_ONCE()/WRITE_ONCE()).
 */
static void pool_list_init(struct pcb_list *list)
{
	__atomic_store_n(&list->next, list, __ATOMIC_RELAXED);
	list->prev = list;
}

static int pool_list_empty(const struct pcb_list *head)
{
	return __atomic_load_n(&head->next, __ATOMIC_RELAXED) == head;
}

/* list_add_tail() */
static void pool_list_add_tail(struct pcb_list *new, struct pcb_list *head)
{
	struct pcb_list *prev = head->prev;

	head->prev = new;
	new->next = head;
	new->prev = prev;
	__atomic_store_n(&prev->next, new, __ATOMIC_RELAXED);
}

/* list_del_init() */
static void pool_list_del_init(struct pcb_list *entry)
{
	entry->next->prev = entry->prev;
	__atomic_store_n(&entry->prev->next, entry->next, __ATOMIC_RELAXED);
	pool_list_init(entry);
}

/* raw_spin_lock(&pool->lock): the target pool's lock */
static void pool_lock(struct pcb_pool *pool)
{
	while (atomic_exchange_explicit(&pool->lock, 1, memory_order_acquire))
		__builtin_ia32_pause();
}

static void pool_unlock(struct pcb_pool *pool)
{
	atomic_store_explicit(&pool->lock, 0, memory_order_release);
}

/* insert_work(): list_add_tail(&work->entry, &pool->worklist) under the pool's lock */
static void pool_insert(struct pcb_pool *pool)
{
	pool_lock(pool);
	pool_list_add_tail(&pool->entry, &pool->worklist);
	pool_unlock(pool);
}


/* the CPU the calling thread owns, for the signal handler */
static __thread struct pcb_cpu *self_cpu;

static void futex_wait(atomic_uint *word, unsigned int val)
{
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(atomic_uint *word)
{
	atomic_fetch_add(word, 1);
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void pcb_run_work(struct pcb_cpu *cpu)
{
	struct pcb_workq *wq = cpu->h.wq;

	if (!wq)
		return;
	atomic_store(&wq->busy, 1);
	/*
	 * process_one_work(): under the pool's lock the work leaves the
	 * worklist and PENDING is cleared, then work->func runs. Work whose
	 * PENDING is set but which is not on the list yet is left to the
	 * wake that follows its insertion.
	 */
	pool_lock(&wq->pool);
	if (pool_list_empty(&wq->pool.worklist)) {
		pool_unlock(&wq->pool);
		atomic_store(&wq->busy, 0);
		return;
	}
	pool_list_del_init(&wq->pool.entry);
	atomic_fetch_and(wq->data, ~WORK_STRUCT_PENDING);
	pool_unlock(&wq->pool);
	wq->fn(cpu);
	atomic_fetch_add_explicit(&wq->ran, 1, memory_order_relaxed);
	atomic_store(&wq->busy, 0);
}

void pcb_preempt_schedule(struct pcb_cpu *this)
{
	struct pcb_workq *wq = this->h.wq;

	clear_preempt_need_resched(this);
	if (!wq)
		return;
	if (wq->mode == PCB_DELIVER_KWORKER) {
		/* preempted here: the kworker gets the CPU */
		futex_wake(&wq->futex);
		sched_yield();
		return;
	}
	preempt_disable(this);
	pcb_run_work(this);
	preempt_enable(this);
}

static void on_signal(int sig)
{
	struct pcb_cpu *cpu = self_cpu;
	int saved = errno;

	(void)sig;
	if (cpu && cpu->h.wq && pcb_work_pending(cpu->h.wq)) {
		if (preempt_nesting(cpu)) {
			/* inside a section: the owner's preempt_enable() runs it */
			set_preempt_need_resched(cpu);
			atomic_fetch_add_explicit(&cpu->h.wq->deferred, 1, memory_order_relaxed);
		} else {
			preempt_disable(cpu);
			pcb_run_work(cpu);
			preempt_enable(cpu);
		}
	}
	errno = saved;
}

static void install_handler(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
}

static void *kworker(void *arg)
{
	struct pcb_workq *wq = arg;
	struct pcb_cpu *cpu = wq->cpu;

	for (;;) {
		unsigned int seen = atomic_load(&wq->futex);

		if (atomic_load(&wq->stop))
			break;
		/* on the worklist: PENDING alone may be set before the insert, and its wake follows */
		if (pool_list_empty(&wq->pool.worklist)) {
			futex_wait(&wq->futex, seen);
			continue;
		}
		if (pcb_cpu_enter(cpu)) {
			pcb_run_work(cpu);
			pcb_cpu_leave(cpu);
		} else {
			set_preempt_need_resched(cpu);
			atomic_fetch_add_explicit(&wq->deferred, 1, memory_order_relaxed);
			futex_wait(&wq->futex, seen);
		}
	}
	return NULL;
}

static void workq_init(struct pcb_workq *wq, const struct pcb_work *work, enum pcb_delivery mode)
{
	memset(wq, 0, sizeof(*wq));
	pool_list_init(&wq->pool.worklist);
	pool_list_init(&wq->pool.entry);
	wq->mode = mode;
	wq->fn = work->func;
	wq->data = work->data;
	wq->cpu = work->cpu;
}

/* from here on drainers see the work queue of cpu */
static void workq_publish(struct pcb_workq *wq)
{
	if (wq->mode == PCB_DELIVER_POLL)
		wq->cpu->h.poll = wq->data;
	__atomic_store_n(&wq->cpu->h.wq, wq, __ATOMIC_RELEASE);
}

/*
 * SCHED_FIFO on the owner's CPU: like a kworker in its non-preemptible
 * section, the helper runs until it blocks, so the owner cannot enter the
 * stock while the drain is half done.
 */
static int start_kworker(struct pcb_workq *wq, int os_cpu, char *err, size_t errlen)
{
	struct sched_param prio = { .sched_priority = sched_get_priority_min(SCHED_FIFO) };
	pthread_attr_t attr;
	cpu_set_t set;
	int rc;

	if (os_cpu < 0) {
		snprintf(err, errlen, "kworker delivery needs a real CPU to pin the helper to");
		return -EINVAL;
	}
	CPU_ZERO(&set);
	CPU_SET(os_cpu, &set);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	pthread_attr_setschedparam(&attr, &prio);
	rc = pthread_create(&wq->helper, &attr, kworker, wq);
	pthread_attr_destroy(&attr);
	if (rc) {
		snprintf(err, errlen, "cannot start the kworker of CPU %d: %s%s", os_cpu,
			 strerror(rc), rc == EPERM ? " (SCHED_FIFO needs CAP_SYS_NICE; "
			 "or use run.work_delivery = signal)" : "");
		return -rc;
	}
	wq->helper_started = 1;
	return 0;
}

int pcb_workq_start(struct pcb_workq *wq, const struct pcb_work *work, enum pcb_delivery mode,
		    int os_cpu, char *err, size_t errlen)
{
	workq_init(wq, work, mode);
	wq->owner = pthread_self();
	workq_publish(wq);
	self_cpu = work->cpu;

	if (mode == PCB_DELIVER_SIGNAL) {
		static pthread_once_t once = PTHREAD_ONCE_INIT;

		pthread_once(&once, install_handler);
	} else if (mode == PCB_DELIVER_KWORKER) {
		return start_kworker(wq, os_cpu, err, errlen);
	}
	return 0;
}

static void *noop(void *arg)
{
	return arg;
}

int pcb_workq_fifo_permitted(void)
{
	struct sched_param prio = { .sched_priority = sched_get_priority_min(SCHED_FIFO) };
	pthread_attr_t attr;
	pthread_t t;
	int rc;

	pthread_attr_init(&attr);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	pthread_attr_setschedparam(&attr, &prio);
	rc = pthread_create(&t, &attr, noop, NULL);
	pthread_attr_destroy(&attr);
	if (rc)
		return 0;
	pthread_join(t, NULL);
	return 1;
}

void pcb_workq_start_virtual(struct pcb_workq *wq, const struct pcb_work *work)
{
	workq_init(wq, work, PCB_DELIVER_IDLE);
	workq_publish(wq);
}

bool pcb_virtual_run_woken(struct pcb_cpu *cpu)
{
	struct pcb_workq *wq = __atomic_load_n(&cpu->h.wq, __ATOMIC_ACQUIRE);

	/* the idle CPU's kworker, woken: alone on its CPU, nothing to preempt */
	if (!wq || wq->mode != PCB_DELIVER_IDLE || !atomic_exchange(&wq->wake, 0))
		return false;
	pcb_run_work(cpu);
	return true;
}

void pcb_virtual_run(struct pcb_cpu *const *cpus, int nr)
{
	for (int i = 0; i < nr; i++)
		pcb_virtual_run_woken(cpus[i]);
}

void pcb_workq_stop(struct pcb_workq *wq)
{
	if (wq->helper_started) {
		atomic_store(&wq->stop, 1);
		futex_wake(&wq->futex);
		pthread_join(wq->helper, NULL);
		wq->helper_started = 0;
	}
	if (wq->cpu && wq->cpu->h.wq == wq) {
		clear_preempt_need_resched(wq->cpu);
		pcb_run_work(wq->cpu);
	}
}

int pcb_work_wait_idle(struct pcb_cpu *const *cpus, int nr, uint64_t timeout, int polled)
{
	uint64_t give_up = pcb_tsc_now() + timeout;

	for (;;) {
		int busy = 0;

		for (int i = 0; i < nr; i++) {
			struct pcb_workq *wq = __atomic_load_n(&cpus[i]->h.wq, __ATOMIC_ACQUIRE);

			if (!wq)
				continue;
			/*
			 * PENDING before busy: pcb_run_work() sets busy before it
			 * clears PENDING, so work that starts between the two looks
			 * is seen by the second (acquire: and what came before it)
			 */
			if ((polled || wq->mode != PCB_DELIVER_POLL) &&
			    (atomic_load_explicit(wq->data, memory_order_acquire) & WORK_STRUCT_PENDING))
				busy++;
			else
				busy += atomic_load(&wq->busy);
		}
		if (!busy)
			return 0;
		if (pcb_tsc_now() > give_up)
			return -1;
		sched_yield();
	}
}

/* flush_work() waits at most this long, and never past the run's end */
static _Atomic uint64_t flush_deadline;

void pcb_work_set_deadline(uint64_t tsc)
{
	atomic_store(&flush_deadline, tsc);
}

void pcb_flush_work(struct pcb_cpu *const *cpus, int nr)
{
	uint64_t now, until = atomic_load(&flush_deadline);

	/*
	 * An idle virtual CPU's work runs on the helper that watches it, in
	 * parallel with the others', while the flusher waits as
	 * flush_work() does; where none watches it (no CPU without a
	 * worker to put a helper on), on the flusher, one after another
	 */
	for (int i = 0; i < nr; i++)
		if (!pcb_virtual_served(cpus[i]))
			pcb_virtual_run_woken(cpus[i]);
	now = pcb_tsc_now();
	pcb_work_wait_idle(cpus, nr, until > now ? until - now : 0, 1);
}

bool pcb_schedule_work_on(struct pcb_cpu *cpu)
{
	struct pcb_workq *wq = __atomic_load_n(&cpu->h.wq, __ATOMIC_ACQUIRE);

	if (!wq)
		return false;
	/* queue_work_on(): test_and_set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work)) */
	if (atomic_fetch_or(wq->data, WORK_STRUCT_PENDING) & WORK_STRUCT_PENDING)
		return false;
	atomic_store_explicit(&wq->queued,
			      atomic_load_explicit(&wq->queued, memory_order_relaxed) + 1,
			      memory_order_relaxed);
	/* __queue_work(): the work onto the target pool's worklist */
	pool_insert(&wq->pool);
	switch (wq->mode) {
	case PCB_DELIVER_IDLE:
		/* wake_up_worker() of an idle, polling CPU: a store to its idle task's flags */
		atomic_store_explicit(&wq->wake, 1, memory_order_release);
		break;
	case PCB_DELIVER_SIGNAL:
	case PCB_DELIVER_KWORKER: {
		/* a real worker must be preempted: a system call, its own figure */
		uint64_t t0 = wake_timed ? pcb_tsc_now() : 0;

		if (wq->mode == PCB_DELIVER_SIGNAL)
			pthread_kill(wq->owner, SIGUSR1);
		else
			futex_wake(&wq->futex);
		if (wake_timed)
			wake_ticks += pcb_tsc_now() - t0;
		break;
	}
	case PCB_DELIVER_POLL:
	case PCB_DELIVER_WORKQUEUE:	/* the kernel backend's: the module queues it */
		break;
	}
	return true;
}
