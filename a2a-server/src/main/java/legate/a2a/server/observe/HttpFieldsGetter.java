package legate.a2a.server.observe;

import io.opentelemetry.context.propagation.TextMapGetter;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;

/** Reads W3C Trace Context headers ({@code traceparent}, {@code tracestate}) from a Jetty request. */
public enum HttpFieldsGetter implements TextMapGetter<HttpFields> {
    INSTANCE;

    @Override
    public Iterable<String> keys(HttpFields carrier) {
        return carrier.stream().map(HttpField::getName).toList();
    }

    @Override
    public String get(HttpFields carrier, String key) {
        return carrier == null ? null : carrier.get(key);
    }
}
