package legate.store.sqlite;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

/**
 * A ListTasks page token: the sort key of the last task of the previous page, opaque to callers.
 * Written exactly as the in-memory store writes its tokens, so a token means the same position in
 * either store.
 */
record PageToken(StatusKey time, String id) {

    String encode() {
        String raw = time.seconds() + "." + time.nanos() + "|" + id;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }

    /** @throws IllegalArgumentException when the token was not issued by a Legate store */
    static PageToken decode(String token) {
        try {
            String raw = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
            int bar = raw.indexOf('|');
            int dot = raw.indexOf('.');
            if (bar < 0 || dot < 0 || dot > bar) {
                throw new IllegalArgumentException("malformed");
            }
            Instant time = Instant.ofEpochSecond(Long.parseLong(raw.substring(0, dot)),
                    Long.parseLong(raw.substring(dot + 1, bar)));
            return new PageToken(StatusKey.of(time), raw.substring(bar + 1));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("invalid pageToken: it was not issued by this server");
        }
    }
}
