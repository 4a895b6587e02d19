package legate.a2a.client;

import java.time.Duration;

/**
 * One attempt to resume a cut stream, as reported to {@link StreamListener#onResume} before it is
 * made: SubscribeToTask on {@code taskId} with {@code Last-Event-ID: lastEventId}, after
 * {@code delay}.
 *
 * @param taskId the task whose stream was cut
 * @param lastEventId the id of the last event the listener received
 * @param attempt 1 for the first attempt after a cut; it starts again at 1 once an attempt has
 *     delivered an event
 * @param attempts how many attempts are made before the stream is given up as cut
 * @param delay the wait before this attempt
 * @param why what ended the previous response, for people
 */
public record ResumeAttempt(String taskId, String lastEventId, int attempt, int attempts, Duration delay, String why) {
}
