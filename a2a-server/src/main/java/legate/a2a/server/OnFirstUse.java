package legate.a2a.server;

import java.util.function.Supplier;

/**
 * A value made the first time it is asked for, then kept: what a server may need but should not
 * make on the way to its first answer (measured with bench workload 5: the push notifications'
 * signing key and HTTP client, made at start for a feature most servers never use, were a sixth of
 * a cold start). Thread-safe; the value is made once, by the first caller.
 */
public final class OnFirstUse<T> implements Supplier<T> {
    private final Supplier<T> make;
    private volatile T value;

    public OnFirstUse(Supplier<T> make) {
        this.make = make;
    }

    @Override
    public T get() {
        T v = value;
        if (v == null) {
            synchronized (this) {
                v = value;
                if (v == null) {
                    v = make.get();
                    value = v;
                }
            }
        }
        return v;
    }
}
