package app.vigie.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/** Calls started at the same moment, each on a thread of its own: races between requests, made on purpose. */
public final class AtOnce {
    private AtOnce() {
    }

    /** Runs {@code n} calls ({@code call.apply(i)} makes the i-th) released together; their results, in order. */
    public static <T> List<T> run(int n, IntFunction<Callable<T>> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<T>> answers = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Callable<T> c = call.apply(i);
                answers.add(pool.submit(() -> {
                    start.await();
                    return c.call();
                }));
            }
            start.countDown();
            List<T> out = new ArrayList<>();
            for (Future<T> a : answers) {
                out.add(a.get(60, TimeUnit.SECONDS));
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
