package legate.a2a.server.task;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

/**
 * A ListTasks page token (A2A §3.1.4): the sort key (status time, id) of the last task of the
 * previous page, opaque to callers. Every store writes it the same way, so a token means the same
 * position whichever store issued it.
 */
public record PageToken(Instant time, String id) {

    public String encode() {
        String raw = time.getEpochSecond() + "." + time.getNano() + "|" + id;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }

    /** @throws IllegalArgumentException when {@code token} was not issued by a Legate store */
    public static PageToken decode(String token) {
        try {
            String raw = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
            int bar = raw.indexOf('|');
            int dot = raw.indexOf('.');
            if (bar < 0 || dot < 0 || dot > bar) {
                throw new IllegalArgumentException("malformed");
            }
            Instant time = Instant.ofEpochSecond(Long.parseLong(raw.substring(0, dot)),
                    Long.parseLong(raw.substring(dot + 1, bar)));
            return new PageToken(time, raw.substring(bar + 1));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("invalid pageToken: it was not issued by this server");
        }
    }
}
