package legate.tap;

import static org.assertj.core.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A child process run to its end with a bounded wait: its exit code and its merged output. */
public record ChildProcess(int exitCode, String output) {

    public static ChildProcess run(List<String> command, Path dir, Map<String, String> env, Duration timeout)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Thread reader = Thread.ofVirtual().start(() -> {
            try (InputStream in = p.getInputStream()) {
                in.transferTo(out);
            } catch (IOException ignored) {
                // the process is gone; what was read is what there is
            }
        });
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
            reader.join(5_000);
            return fail(command + " did not finish within " + timeout + "; its output:\n"
                    + out.toString(StandardCharsets.UTF_8));
        }
        reader.join(5_000);
        return new ChildProcess(p.exitValue(), out.toString(StandardCharsets.UTF_8));
    }
}
