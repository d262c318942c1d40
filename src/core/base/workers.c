#include "core/base/workers.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/base/error.h"

struct workers {
	int count;
	pthread_t *threads;
	struct worker_seat *seats;
	pthread_mutex_t lock;
	pthread_cond_t start; /* a new round, or quit */
	pthread_cond_t done;  /* the last helper of a round finished */
	uint64_t round;       /* rounds handed out so far */
	int running;          /* helpers still inside this round's fn */
	int quit;
	workers_fn fn;
	void *arg;
};

struct worker_seat {
	struct workers *pool;
	int index;
};

int workers_resolve(int requested)
{
	long n = requested;
	if (n <= 0) {
		n = sysconf(_SC_NPROCESSORS_ONLN);
		if (n < 1)
			n = 1;
	}
	return n > WORKERS_MAX ? WORKERS_MAX : (int)n;
}

static void *worker_main(void *p)
{
	struct worker_seat *seat = p;
	struct workers *w = seat->pool;
	uint64_t seen = 0;
	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (w->round == seen && !w->quit)
			pthread_cond_wait(&w->start, &w->lock);
		if (w->quit)
			break;
		seen = w->round;
		workers_fn fn = w->fn;
		void *arg = w->arg;
		pthread_mutex_unlock(&w->lock);
		fn(arg, seat->index, w->count);
		pthread_mutex_lock(&w->lock);
		if (--w->running == 0)
			pthread_cond_signal(&w->done);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static void workers_stop(struct workers *w, int started)
{
	pthread_mutex_lock(&w->lock);
	w->quit = 1;
	pthread_cond_broadcast(&w->start);
	pthread_mutex_unlock(&w->lock);
	for (int i = 0; i < started; i++)
		pthread_join(w->threads[i], NULL);
}

int workers_create(struct workers **out, int threads)
{
	*out = NULL;
	if (threads < 1 || threads > WORKERS_MAX)
		return GULLY_ERANGE;
	struct workers *w = calloc(1, sizeof *w);
	if (!w)
		return GULLY_ENOMEM;
	w->count = threads;
	w->threads = calloc((size_t)threads, sizeof *w->threads);
	w->seats = calloc((size_t)threads, sizeof *w->seats);
	if (!w->threads || !w->seats || pthread_mutex_init(&w->lock, NULL) != 0) {
		free(w->threads);
		free(w->seats);
		free(w);
		return GULLY_ENOMEM;
	}
	pthread_cond_init(&w->start, NULL);
	pthread_cond_init(&w->done, NULL);
	for (int i = 1; i < threads; i++) {
		w->seats[i].pool = w;
		w->seats[i].index = i;
		if (pthread_create(&w->threads[i - 1], NULL, worker_main, &w->seats[i]) != 0) {
			workers_stop(w, i - 1);
			w->count = 1; /* nothing else to join */
			workers_destroy(w);
			return GULLY_ENOMEM;
		}
	}
	*out = w;
	return GULLY_OK;
}

void workers_destroy(struct workers *w)
{
	if (!w)
		return;
	if (w->count > 1)
		workers_stop(w, w->count - 1);
	pthread_cond_destroy(&w->start);
	pthread_cond_destroy(&w->done);
	pthread_mutex_destroy(&w->lock);
	free(w->threads);
	free(w->seats);
	free(w);
}

int workers_count(const struct workers *w)
{
	return w ? w->count : 1;
}

void workers_run(struct workers *w, workers_fn fn, void *arg)
{
	if (!w || w->count == 1) {
		fn(arg, 0, 1);
		return;
	}
	pthread_mutex_lock(&w->lock);
	w->fn = fn;
	w->arg = arg;
	w->running = w->count - 1;
	w->round++;
	pthread_cond_broadcast(&w->start);
	pthread_mutex_unlock(&w->lock);

	fn(arg, 0, w->count);

	pthread_mutex_lock(&w->lock);
	while (w->running > 0)
		pthread_cond_wait(&w->done, &w->lock);
	pthread_mutex_unlock(&w->lock);
}

void workers_share(long n, int index, int count, long *begin, long *end)
{
	long base = n / count, extra = n % count;
	*begin = index * base + (index < extra ? index : extra);
	*end = *begin + base + (index < extra ? 1 : 0);
}
